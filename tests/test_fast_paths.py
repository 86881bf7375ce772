"""The storage and start-up paths of the speed work (docs/replay.md, "Speed") against
the plain ones they replace: the replay's rows kept as columns, a Codex request built
from its values in field order, the command line building one command's arguments,
and the registry's search keys made on the first search."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
import typing
from collections.abc import Iterator
from decimal import Decimal
from importlib import resources
from pathlib import Path
from types import NoneType
from typing import Any

import pytest

from budgetcore.cli import COMMANDS, build_parser
from budgetcore.core.scenario import Scenario
from budgetcore.errors import ScenarioError
from budgetcore.registry.models import DATA_FILE, _norm, default_registry, parse_registry
from budgetcore.registry.prices import Prices
from budgetcore.replay.logs import LogRequest, parse_claude_code, parse_codex, reader
from budgetcore.replay.model import (
    NOT_INT_FIELDS,
    PACKED_FROM,
    Ints,
    ReplayOptions,
    Turn,
    TurnRow,
    TurnRows,
    row_dicts_of,
)
from budgetcore.replay.simulate import replay

ROOT = Path(__file__).resolve().parents[1]
PRICES = Prices(
    input=Decimal("0.000003"),
    output=Decimal("0.000015"),
    cache_read=Decimal("0.0000003"),
    cache_write=Decimal("0.00000375"),
)

# ---------------------------------------------------------------- rows as columns


def test_every_column_stored_as_integers_is_an_int_field() -> None:
    # A flag kept in an int64 column would read back as 0 or 1, not False or True.
    hints = typing.get_type_hints(TurnRow)
    for name in TurnRow._fields:
        if name not in NOT_INT_FIELDS:
            assert hints[name] in (int, int | None), name
    assert hints["trigger_reached"] is bool
    assert hints["admitted"] is bool


def _replays() -> list[tuple[Scenario, list[Turn], ReplayOptions | None]]:
    # past PACKED_FROM: the integer columns are packed (Ints); the others stay tuples
    turns = [Turn(added=3_000 + 1_700 * (i % 7), output=400) for i in range(PACKED_FROM + 100)]
    return [
        (Scenario(), turns, None),
        (Scenario(), turns, ReplayOptions(main_prices=PRICES, cache=True)),
        (Scenario(), turns[:5], ReplayOptions(main_prices=PRICES)),
        (Scenario(), turns[:500], ReplayOptions(main_prices=PRICES, cache=True)),
    ]


@pytest.mark.parametrize("turns", [5, 500, PACKED_FROM - 1, PACKED_FROM])
def test_a_short_replay_keeps_its_integer_columns_as_tuples_a_long_one_packs_them(
    turns: int,
) -> None:
    """Packing is for memory, and a pass over packed integers makes an int object per
    value: the page's 500-turn replay, read by some forty passes per input, keeps
    tuples (docs/performance.md, "The timed replay redraw under 36 M instructions")."""
    result = replay(Scenario(), [Turn(added=2_000, output=300)] * turns)
    full = result.columns["full_input"]
    assert type(full) is (Ints if turns >= PACKED_FROM else tuple)
    assert tuple(full) == tuple(r.full_input for r in result.rows)


@pytest.mark.parametrize("case", range(4))
def test_rows_read_from_columns_are_the_rows_and_keep_their_types(case: int) -> None:
    scenario, turns, options = _replays()[case]
    result = replay(scenario, turns, options)
    rows = result.rows
    assert isinstance(rows, TurnRows)
    listed = list(rows)
    assert len(listed) == len(rows) == len(turns)
    assert [rows[i] for i in range(len(rows))] == listed
    assert rows[-1] == listed[-1]
    assert rows[1:4] == tuple(listed[1:4])
    assert rows == tuple(listed)
    with pytest.raises(IndexError):
        rows[len(rows)]
    for r in listed[:50] + listed[-50:]:
        assert type(r) is TurnRow
        assert type(r.admitted) is bool
        assert type(r.trigger_reached) is bool
        assert type(r.history) is int
        assert r.main_units is None or type(r.main_units) is int
    for key in TurnRow._fields:
        assert tuple(result.columns[key]) == tuple(getattr(r, key) for r in listed), key
    # Equal replays compare and hash equal through the stored columns.
    again = replay(scenario, turns, options)
    assert again == result
    assert hash(again.rows) == hash(result.rows)
    assert result.rows[-1].plan.funnel.full_input == result.rows[-1].full_input


def _timed_replay() -> tuple[Scenario, list[Turn], ReplayOptions]:
    from budgetcore.replay.options import parse_options  # noqa: PLC0415

    turns = [Turn(added=9_000, output=300, gap_ms=20_000) for _ in range(60)]
    opts = parse_options(
        {
            "timing": {"gap_ms": 20000, "duration": {"fixed_s": "30"}},
            "retries": {"failure_rate": "0.3", "failure_seed": 2},
        }
    )
    return Scenario(), turns, dataclasses.replace(opts, main_prices=PRICES)


@pytest.mark.parametrize("case", range(5))
def test_row_dicts_from_columns_are_each_rows_as_dict(case: int) -> None:
    scenario, turns, options = (*_replays(), _timed_replay())[case]
    result = replay(scenario, turns, options)
    want = [r.as_dict(result.timed) for r in result.rows]
    got = list(row_dicts_of(result.rows, result.timed))
    assert got == want
    assert [list(d) for d in got] == [list(d) for d in want]  # the keys' order too
    assert [type(v) for d in got for v in d.values()] == [type(v) for d in want for v in d.values()]
    assert list(row_dicts_of(tuple(result.rows), result.timed)) == want  # plain rows


# ---------------------------------------------------------------- a Codex request


def test_a_codex_request_has_each_value_in_its_field() -> None:
    # The reader builds a request from its 16 values in field order (one C call):
    # against the same request written with keywords.
    usage = {
        "input_tokens": 1_000,
        "cached_input_tokens": 200,
        "output_tokens": 50,
        "reasoning_output_tokens": 10,
        "total_tokens": 1_050,
    }
    lines = [
        {"timestamp": "2026-01-20T09:00:00.000Z", "type": "session_meta", "payload": {"id": "s"}},
        {
            "timestamp": "2026-01-20T09:00:00.500Z",
            "type": "turn_context",
            "payload": {"model": "gpt-5"},
        },
        {
            "timestamp": "2026-01-20T09:00:05.123Z",
            "type": "event_msg",
            "payload": {
                "type": "token_count",
                "info": {
                    "total_token_usage": usage,
                    "last_token_usage": usage,
                    "model_context_window": 272_000,
                },
                "rate_limits": {"primary": None},
            },
        },
    ]
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
    log = parse_codex(text)
    when = 1_768_899_605_123
    assert log.main.requests == (
        LogRequest(
            line=3,
            context=1_000,
            output=50,
            cache_read=200,
            cache_write=0,
            model="gpt-5",
            input=800,
            reasoning=10,
            started=when,
            finished=when,
        ),
    )
    assert type(log.main.requests[0].messages) is NoneType


def test_a_claude_code_request_has_each_value_in_its_field() -> None:
    # As the Codex one: built from its values in field order, checked by keywords.
    usage = {
        "input_tokens": 7,
        "cache_creation_input_tokens": 300,
        "cache_read_input_tokens": 20_000,
        "output_tokens": 40,
        "cache_creation": {"ephemeral_5m_input_tokens": 100, "ephemeral_1h_input_tokens": 200},
    }
    lines = [
        {
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "timestamp": "2026-01-20T09:00:00.000Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "content": "abcde"}],
            },
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "parentUuid": "u1",
            "timestamp": "2026-01-20T09:00:05.123Z",
            "requestId": "r1",
            "costUSD": 0.5,
            "message": {"id": "m1", "model": "claude-sonnet-4-5", "usage": usage},
        },
    ]
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines)
    log = parse_claude_code(text)
    when = 1_768_899_605_123
    assert log.main.requests == (
        LogRequest(
            line=2,
            context=20_307,
            output=40,
            cache_read=20_000,
            cache_write=300,
            model="claude-sonnet-4-5",
            messages=1,
            tool_result_chars=5,
            input=7,
            cache_write_1h=200,
            started=when,
            finished=when,
            logged_cost=Decimal("0.5"),
            sent=when - 5_123,  # the tool result it answers (parentUuid u1)
        ),
    )
    assert type(log.main.requests[0].reasoning) is int


# ---------------------------------------------------------------- the command line

ARGVS = [
    ["replay", "--log", "x.jsonl", "--usage"],
    ["replay", "s.json", "--turns", "t.jsonl", "--format", "csv", "--series", "main"],
    ["plan", "s.json", "--config", "c.toml"],
    ["report", "s.json", "--out", "o", "--log", "x.jsonl"],
    ["check", "c.toml"],
    ["models", "sonnet", "--limit", "3", "--json"],
    ["peers", "--window", "200000", "--max-output", "64000"],
    ["tune", "--log", "a.jsonl", "--log", "b.jsonl", "--k", "1000,2000", "--jobs", "2"],
    ["cases", "--random", "3", "--seed", "4"],
    ["schema", "plan"],
]


@pytest.mark.parametrize("argv", ARGVS, ids=lambda a: a[0])
def test_one_commands_parser_parses_as_the_whole_one(argv: list[str]) -> None:
    whole = vars(build_parser().parse_args(argv))
    one = vars(build_parser(argv[0]).parse_args(argv))
    assert whole.pop("func").__name__ == one.pop("func").__name__ == COMMANDS[argv[0]][1]
    assert one == whole


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_one_commands_help_is_the_whole_ones(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = []
    for parser in (build_parser(), build_parser(command)):
        with pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]
    assert texts[0].startswith("usage: budgetcore " + command)


def test_replay_usage_imports_no_other_command_and_no_replay() -> None:
    log = next((ROOT / "tests/fixtures/logs/codex/modern-basic").rglob("*.jsonl"))
    code = (
        "import sys, io, contextlib\n"
        "from budgetcore.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['replay', '--log', {str(log)!r}, '--usage']) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith('budgetcore.cli.') "
        "or m == 'budgetcore.replay.simulate'))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    # cli.progress is the progress line of a long read (a few lines, stdlib only),
    # cli.log_stream the replay's own file stream and cli.log_paths the files a --log
    # path means: no other command (the signal handler every command runs under is
    # budgetcore.stop)
    assert out.stdout.split("\n")[0] == (
        "['budgetcore.cli.log_paths', 'budgetcore.cli.log_stream', 'budgetcore.cli.progress', "
        "'budgetcore.cli.replay_cmds', 'budgetcore.cli.shell']"
    )


# ---------------------------------------------------------------- registry search keys


def test_search_keys_wait_for_the_first_search_and_search_the_same() -> None:
    text = resources.files("budgetcore").joinpath(DATA_FILE).read_bytes()
    fresh = parse_registry(text)
    assert fresh.resolve("claude-sonnet-4-5").model is not None
    assert fresh.lookup("gpt-5") is not None
    assert not fresh._search  # resolve and lookup need no search key
    fresh.matches("sonnet 4.5")
    for r in fresh.rows:  # the keys parse_registry made for every row before
        key = _norm(f"{r.name} {r.provider}")
        assert fresh._search[r.name] == (
            key,
            _norm(r.name.rsplit("/", 1)[-1]),
            key.replace(" ", ""),
        )
    shipped = default_registry()
    for query in ("sonnet 4.5", "GPT5", "gemini", "claude-3", "o3 mini", "zz-none"):
        names = [r.name for r in parse_registry(text).matches(query)]
        assert names == [r.name for r in shipped.matches(query)], query
    # A narrowed registry shares the keys and finds the subset's rows in the same order.
    some = fresh.within(fresh.rows[::3])
    kept = {r.name for r in fresh.rows[::3]}
    want = [r.name for r in fresh.matches("claude") if r.name in kept]
    assert [r.name for r in some.matches("claude")] == want


# ---------------------------------------------------------------- the compiled decoder

try:
    from budgetcore.replay.logs import compiled
except ImportError:  # msgspec is not installed: only the standard library's paths
    compiled = None  # type: ignore[assignment]

needs_compiled = pytest.mark.skipif(
    compiled is None or compiled.codex_decoder() is None,
    reason="the compiled decoder is not installed",
)


def _sessions_both_ways(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """A session file (with its subagent files) read with the compiled decoder, and
    with the standard library's alone."""
    from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415

    def read() -> object:
        try:
            return read_log_path(str(path), None)
        except ScenarioError as exc:
            return str(exc)

    with monkeypatch.context() as m:
        m.setattr(reader, "COMPILED_FROM_LINE", 0)  # the compiled decoder from line 1
        m.delenv("BUDGETCORE_PURE_PYTHON", raising=False)
        fast = read()
        m.setenv("BUDGETCORE_PURE_PYTHON", "1")
        plain = read()
    return fast, plain


def _counting_decodes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many lines the compiled decoder takes, from now on: [taken]."""
    assert compiled is not None
    taken = [0]
    original = compiled.decode_batch

    def decode_batch(*args: Any, **kwargs: Any) -> Any:
        found = original(*args, **kwargs)
        if found is not None:
            taken[0] += sum(1 for line in found if line is not None)
        return found

    monkeypatch.setattr(compiled, "decode_batch", decode_batch)
    return taken


@needs_compiled
def test_every_fixture_reads_alike_with_the_compiled_decoder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Claude Code sessions with their subagent files, and Codex rollouts: the same
    series, requests, times, compactions, ledger and skipped lines either way."""
    taken = _counting_decodes(monkeypatch)
    sessions = sorted(
        p for p in (ROOT / "tests/fixtures").rglob("*.jsonl") if "subagents" not in p.parts
    )
    assert len(sessions) > 100
    for path in sessions:
        fast, plain = _sessions_both_ways(path, monkeypatch)
        assert fast == plain, path
    assert taken[0] > 400  # not vacuous: most of their lines


def _bench_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_bench_logs", ROOT / "scripts/make_bench_logs.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_compiled
def test_the_bench_logs_read_alike_with_the_compiled_decoder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bench generator's logs, small: the compiled decoder takes nearly every line,
    and the sessions and ledgers are the standard library's, line by line too."""
    from tests.log_reader_helpers import claude_three_ways, rollout_three_ways  # noqa: PLC0415

    bench = _bench_module()
    claude_path, codex_path = tmp_path / "s.jsonl", tmp_path / "r.jsonl"
    bench.claude(claude_path, 1, requests_cap=400)
    bench.codex(codex_path, 3_000)
    taken = _counting_decodes(monkeypatch)
    for path in (claude_path, codex_path):
        fast, plain = _sessions_both_ways(path, monkeypatch)
        assert fast == plain, path
    lines = sum(len(p.read_bytes().splitlines()) for p in (claude_path, codex_path))
    assert taken[0] >= lines - 5
    claude_three_ways([("s.jsonl", claude_path.read_bytes())])
    rollout_three_ways("r.jsonl", codex_path.read_bytes())


#: The compiled decoder's lines counted, in a child process (its imports its own).
_COUNTING = """from budgetcore.replay.logs import claude
taken = [0]
original = claude.compiled_batches  # counted without importing msgspec here
def compiled_batches(*args):
    decode = original(*args)
    if decode is None:
        return None
    def counting(batch):
        found = decode(batch)
        if found is not None:
            taken[0] += sum(1 for line in found if line is not None)
        return found
    return counting
claude.compiled_batches = compiled_batches
"""

_COUNTING_READS = (
    """
import json, sys
from budgetcore.cli.replay_cmds import read_log_path
"""
    + _COUNTING
    + """out = []
for path in sys.argv[1:]:
    taken[0] = 0
    log = read_log_path(path, None)
    out.append([taken[0], sum(f.lines for f in log.ledger), "msgspec" in sys.modules])
print(json.dumps(out))
"""
)


@needs_compiled
def test_the_compiled_decoder_reads_from_the_process_s_first_megabyte(tmp_path: Path) -> None:
    """A short log alone is read without msgspec (its import costs more than it
    saves); a session of long lines is read compiled from the batch that crosses
    COMPILED_FROM_BYTES (long before COMPILED_FROM_LINE lines); small sessions read one
    after another (a folder) once the process's logs have crossed it, or once msgspec
    is loaded. The sessions are the standard library's either way."""
    from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415

    bench = _bench_module()
    long_path = tmp_path / "long.jsonl"
    bench.claude(long_path, 3)  # about 3 MB
    small = [tmp_path / f"s{i}.jsonl" for i in range(16)]
    for i, path in enumerate(small):
        bench.claude(path, 1, seed=i, requests_cap=60)  # about 160 kB each
    sizes = [p.stat().st_size for p in small]
    assert all(size < reader.COMPILED_FROM_BYTES // 4 for size in sizes)
    assert sum(sizes) > 2 * reader.COMPILED_FROM_BYTES
    lines = len(long_path.read_bytes().splitlines())
    assert lines < reader.COMPILED_FROM_LINE < lines * 4

    def counted(*paths: Path) -> list[list[Any]]:
        env = {**os.environ, "BUDGETCORE_PURE_PYTHON": ""}
        argv = [sys.executable, "-c", _COUNTING_READS, *map(str, paths)]
        run = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT, env=env)
        found: list[list[Any]] = json.loads(run.stdout)
        return found

    assert counted(small[0]) == [[0, small[0].read_bytes().count(b"\n"), False]]
    (taken, total, loaded), after = counted(long_path, small[0])
    assert loaded
    assert taken >= total - reader.BATCH_LINES  # at most the first batch in full
    assert after[0] == after[1]  # msgspec is loaded: the next session is read compiled
    folder = counted(*small)
    assert folder[0][0] == 0
    assert folder[-1][0] == folder[-1][1]  # past the first megabyte: every line compiled
    crossed = next(i for i, row in enumerate(folder) if row[0])
    assert sum(sizes[:crossed]) < reader.COMPILED_FROM_BYTES <= sum(sizes[: crossed + 1])
    with pytest.MonkeyPatch.context() as m:
        m.setenv("BUDGETCORE_PURE_PYTHON", "1")
        for path in (long_path, small[-1]):
            plain = read_log_path(str(path), None)
            m.delenv("BUDGETCORE_PURE_PYTHON")
            assert read_log_path(str(path), None) == plain
            m.setenv("BUDGETCORE_PURE_PYTHON", "1")


_COUNTING_FOLDER = (
    """
import contextlib, io, json, sys
from budgetcore.cli import main
"""
    + _COUNTING
    + """with contextlib.redirect_stdout(io.StringIO()) as out:
    main(["replay", "--log", sys.argv[1], "--usage", "--format", "jsonl"])
rows = [json.loads(line) for line in out.getvalue().splitlines()]
lines = sum(f["lines"] for r in rows if "summary" in r for f in r["summary"]["log"]["ledger"])
print(json.dumps([taken[0], lines, "msgspec" in sys.modules]))
"""
)


@needs_compiled
def test_a_folder_of_small_sessions_past_the_megabyte_is_read_compiled_from_its_first(
    tmp_path: Path,
) -> None:
    """A folder's size is known from its walk: from COMPILED_FROM_BYTES on, its first
    session is read compiled too (its first megabyte was read with the standard
    library, in each process that read it); a smaller folder is read without msgspec,
    as before."""
    bench = _bench_module()
    large, small = tmp_path / "large", tmp_path / "small"
    large.mkdir()
    small.mkdir()
    for i in range(16):
        bench.claude(large / f"s{i}.jsonl", 1, seed=i, requests_cap=60)  # about 160 kB each
    bench.claude(small / "s.jsonl", 1, seed=0, requests_cap=60)
    sizes = [p.stat().st_size for p in large.iterdir()]
    assert all(size < reader.COMPILED_FROM_BYTES // 4 for size in sizes)
    assert sum(sizes) > 2 * reader.COMPILED_FROM_BYTES

    def counted(folder: Path) -> list[Any]:
        env = {**os.environ, "BUDGETCORE_PURE_PYTHON": "", "BUDGETCORE_WORKERS": "1"}
        argv = [sys.executable, "-c", _COUNTING_FOLDER, str(folder)]
        run = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT, env=env)
        found: list[Any] = json.loads(run.stdout)
        return found

    taken, lines, loaded = counted(large)
    assert loaded
    assert taken == lines > 0  # every line compiled, the first session's too
    assert counted(small) == [0, small.joinpath("s.jsonl").read_bytes().count(b"\n"), False]


def test_a_log_read_leaves_the_cycle_collector_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collector is off during the read only; in a library or test process it is
    back as it was after, nothing frozen (only the process entry, ``run``, freezes),
    and a read leaves no cycle behind for it (a Claude Code entry and its request
    hold each other until the reader lets go)."""
    import gc  # noqa: PLC0415

    from budgetcore.cli.replay_cmds import read_log_path  # noqa: PLC0415
    from budgetcore.replay.logs import claude  # noqa: PLC0415

    bench = _bench_module()
    claude_path, codex_path = tmp_path / "s.jsonl", tmp_path / "r.jsonl"
    bench.claude(claude_path, 1, requests_cap=50)
    bench.codex(codex_path, 50)
    during: list[bool] = []
    original = claude._Reader.session

    def session(self: Any, name: str) -> Any:
        during.append(gc.isenabled())
        return original(self, name)

    monkeypatch.setattr(claude._Reader, "session", session)
    frozen = gc.get_freeze_count()
    try:
        for enabled in (True, False):
            for path in (claude_path, codex_path):
                gc.collect()
                (gc.enable if enabled else gc.disable)()
                log = read_log_path(str(path), None)
                assert gc.isenabled() is enabled
                assert log.series[0].requests
                gc.disable()
                gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds stays to be seen
                gc.collect()
                left = [x for x in gc.garbage if type(x) in (claude._Entry, claude._Request)]
                assert not left, path  # nothing of the reader's waits for the collector
                gc.set_debug(0)
                gc.garbage.clear()
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert during == [False, False]
    assert gc.get_freeze_count() == frozen


def test_the_process_entry_freezes_after_a_read_and_gives_it_back_when_it_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run`` (the process entry) freezes what a log read leaves alive; called in a
    process that goes on (this test), it unfreezes it all when it returns."""
    import gc  # noqa: PLC0415

    from budgetcore.cli import run, shell  # noqa: PLC0415

    bench = _bench_module()
    path = tmp_path / "s.jsonl"
    bench.claude(path, 1, requests_cap=20)
    frozen: list[int] = []
    original = shell.collector_paused

    @contextlib.contextmanager
    def spied() -> Iterator[None]:
        with original():
            yield
        frozen.append(gc.get_freeze_count())

    monkeypatch.setattr(shell, "collector_paused", spied)
    monkeypatch.setattr("budgetcore.cli.replay_cmds.collector_paused", spied)
    before = gc.get_freeze_count()
    with pytest.raises(SystemExit) as stop:
        run(["replay", "--log", str(path), "--usage"])
    assert stop.value.code == 0
    assert '"requests"' in capsys.readouterr().out
    assert len(frozen) == 1
    assert frozen[0] > before  # frozen after the read, within the command
    assert gc.get_freeze_count() == before  # and given back when run returned
    assert gc.isenabled()


@needs_compiled
def test_replay_usage_prints_the_same_with_the_compiled_decoder(tmp_path: Path) -> None:
    """The command's whole output, byte for byte."""
    bench = _bench_module()
    logs = [tmp_path / "r.jsonl", tmp_path / "s.jsonl"]  # past COMPILED_FROM_LINE lines
    bench.codex(logs[0], 1_500)
    bench.claude(logs[1], 1, requests_cap=1_500)
    assert all(len(p.read_bytes().splitlines()) > reader.COMPILED_FROM_LINE for p in logs)
    for log in logs:
        outs = []
        for pure in ("", "1"):
            env = {**os.environ, "BUDGETCORE_PURE_PYTHON": pure}
            argv = [sys.executable, "-m", "budgetcore", "replay", "--log", str(log), "--usage"]
            run = subprocess.run(argv, capture_output=True, check=True, cwd=ROOT, env=env)
            outs.append(run.stdout)
        assert outs[0] == outs[1], log
        assert b'"requests"' in outs[0]


# ---------------------------------------------------------------- measured usage


def test_a_log_s_backtest_and_replay_run_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The backtest and the replay of a log build values per request that live to the
    output (docs/performance.md): the command runs them with the cycle collector
    paused, as it reads, and gives the collector back as it was."""
    import gc  # noqa: PLC0415

    from budgetcore.cli import run  # noqa: PLC0415
    from budgetcore.replay.logs import session  # noqa: PLC0415

    bench = _bench_module()
    path = tmp_path / "r.jsonl"
    bench.codex(path, 30)
    during: list[bool] = []
    original = session.run_session

    def spied(*args: Any, **kwargs: Any) -> Any:
        during.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(session, "run_session", spied)
    for argv in (["--format", "jsonl"], ["--usage"]):
        with pytest.raises(SystemExit) as stop:
            run(["replay", "--log", str(path), *argv])
        assert stop.value.code == 0
        assert '"as_run"' in capsys.readouterr().out or argv == ["--usage"]
        assert gc.isenabled()
    assert during == [False, True]  # the usage-only read builds nothing more
