"""What a folder's read keeps of a session once it is measured (issue 40's memory target;
docs/performance.md, "A folder's sessions let go once measured"): with no replay, its
log as bytes (``replay.logs.packed``), read back as it was read; an OpenCode database's
sessions handed over one at a time, each measured before the next is read.

The oracle is the log as the reader made it: every request, time and id read back from
the bytes equals it field by field, type included (tests/packed_helpers.py; the
property on generated requests is tests/property/test_packed_properties.py).
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import sqlite3
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from budgetcore.cli import folder_jobs, replay_cmds
from budgetcore.cli.shell import Unreadable
from budgetcore.cli.walk import walk
from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import database_sessions, read_database
from budgetcore.replay.logs.folder import MAX_FOLDER_FILES, plan_folder
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.packed import SMALL, Packed, packed
from budgetcore.replay.logs.session import kept, run_session
from budgetcore.replay.logs.usage import measured_usage
from budgetcore.replay.output import write_sessions
from tests.packed_helpers import assert_same

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def _fixture_logs() -> list[tuple[str, ParsedLog]]:
    """Every session of every fixture folder of every agent, read as the CLI reads a
    folder (a database: each of its sessions)."""
    out: list[tuple[str, ParsedLog]] = []
    for agent in sorted(p for p in LOGS.iterdir() if p.is_dir()):
        found = walk(str(agent), MAX_FOLDER_FILES)
        for session in plan_folder(list(found.files)).sessions:
            paths = [str(agent.joinpath(*f.split("/"))) for f in session.files]
            try:
                if len(paths) == 1 and replay_cmds._is_database(paths[0]):
                    logs = replay_cmds.read_log_sessions(paths[0], None, session.name)
                else:
                    logs = [replay_cmds.read_log_path(paths[0], None, files=paths)]
            except (ScenarioError, Unreadable):  # a fixture refused: nothing to keep
                continue
            out += [(f"{agent.name}/{session.name}", log) for log in logs]
    return out


FIXTURES = _fixture_logs()


def test_the_fixtures_hold_every_agent_s_sessions() -> None:
    formats = {log.format for _name, log in FIXTURES}
    # Not a test that passes on nothing: every agent with requests is here.
    assert {"claude-code", "codex", "opencode", "copilot-cli", "pi", "kimi-cli"} <= formats
    assert sum(len(log.all_requests()) for _n, log in FIXTURES) > 200
    assert any(log.ids for _n, log in FIXTURES)


@pytest.mark.parametrize(("name", "log"), FIXTURES, ids=[n for n, _l in FIXTURES])
def test_a_fixture_session_packed_reads_back_as_it_was_read(name: str, log: ParsedLog) -> None:
    back = packed(log)
    assert_same(log, back)
    assert measured_usage(back) == measured_usage(log)
    assert_same(log, pickle.loads(pickle.dumps(back)))  # a worker process's runs


def test_a_session_of_a_few_requests_is_kept_as_it_was_read() -> None:
    """Below SMALL values a part stays as read, and a log (and its run) with no part
    worth packing is not copied: a Droid or Goose session's one totals row."""
    small = [(n, log) for n, log in FIXTURES if 0 < len(log.all_requests()) < SMALL]
    large = [(n, log) for n, log in FIXTURES if any(len(s.requests) >= SMALL for s in log.series)]
    assert small
    assert large
    for _name, log in small:
        if len(log.ids) < SMALL and all(len(s.times) < SMALL for s in log.series):
            assert packed(log) is log
            run = run_session("s", log, scenario=None, options=None, replay_it=False)
            assert kept(run) is run
    for _name, log in large:
        back = packed(log)
        assert back is not log
        assert any(isinstance(s.requests, Packed) for s in back.series)


def _bench_db(path: Path, sessions: int, requests: int) -> None:
    """An opencode.db in the bench's shape (scripts/bench_agents.py ``make_opencode``)."""
    import json  # noqa: PLC0415

    db = sqlite3.connect(path)
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, time_created INT)")
    db.execute(
        "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INT, data TEXT)"
    )
    n = 0
    for s in range(sessions):
        db.execute("INSERT INTO session VALUES (?, NULL, 0)", (f"ses_{s}",))
        for i in range(requests):
            n += 1
            data = {
                "role": "assistant",
                "time": {"created": 1767225600000 + n},
                "modelID": "claude-sonnet-4-5",
                "providerID": "anthropic",
                "cost": 0,
                "tokens": {
                    "input": 10 + i,
                    "output": 5 + s,
                    "reasoning": 0,
                    "cache": {"read": 1000 * i, "write": 7},
                },
            }
            db.execute(
                "INSERT INTO message VALUES (?, ?, ?, ?)",
                (f"msg_{n}", f"ses_{s}", n, json.dumps(data)),
            )
    db.commit()
    db.close()


def test_a_database_s_sessions_come_one_at_a_time_as_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "opencode.db"
    _bench_db(path, 3, 4)
    db = sqlite3.connect(path)
    try:
        whole = read_database(db, "opencode.db")
        one_by_one = database_sessions(db, "opencode.db")
        first = next(one_by_one)
        assert first == whole[0]
        assert (first, *one_by_one) == whole
    finally:
        db.close()
    assert [len(log.all_requests()) for log in whole] == [4, 4, 4]


def test_a_folder_keeps_each_measured_session_packed_and_its_output_as_before(
    tmp_path: Path,
) -> None:
    _bench_db(tmp_path / "opencode.db", 3, SMALL)  # fewer are kept as read
    settings = (str(tmp_path), None, None, None, False)  # usage only
    runs = replay_cmds._session_runs(settings, ("opencode.db", ["opencode.db"]))
    assert [r.name for r in runs] == [f"opencode.db#ses_{s}" for s in range(3)]
    db = sqlite3.connect(tmp_path / "opencode.db")
    try:
        logs = read_database(db, "opencode.db")
    finally:
        db.close()
    # Each kept once the next is read; the last is the folder's to keep (_folder_runs).
    for i, (run, log) in enumerate(zip(runs, logs, strict=True)):
        assert run.log is not None
        assert isinstance(run.log.main.requests, Packed) is (i < 2)
        assert isinstance(run.log.ids, Packed) is (i < 2)
        assert_same(log, run.log)
        assert run.measured == measured_usage(log)
    jobs = [("opencode.db", ["opencode.db"]), ("opencode.db", ["opencode.db"])]
    work = partial(replay_cmds._session_runs, settings)
    both = folder_jobs.folder_runs(work, jobs, 1, _Quiet(), kept)
    assert [isinstance(r.log.main.requests, Packed) for r in both] == [True] * 5 + [False]
    assert [r.measured for r in both] == [r.measured for r in runs] * 2


class _Quiet:
    def advance(self, _n: int) -> None:
        pass


def _folder_output(root: Path, fmt: str, workers: int = 1) -> tuple[list[Any], str]:
    """A folder's usage-only runs as the CLI keeps them for ``fmt``, and its output."""
    found = walk(str(root), MAX_FOLDER_FILES)
    jobs = [(s.name, s.files) for s in plan_folder(list(found.files)).sessions]
    work = partial(replay_cmds._session_runs, (str(root), None, None, None, False))
    runs = folder_jobs.folder_runs(work, jobs, workers, _Quiet(), replay_cmds._keeping(fmt))
    runs = replay_cmds.billed_once_runs(runs)
    out: list[str] = []
    replay_cmds.write_sessions(runs, fmt, out.append, folder=True)
    return runs, "".join(out)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_session_no_other_can_bill_is_kept_as_its_json_lines(workers: int) -> None:
    """In JSON Lines, a usage-only session with no ids is written once measured and
    keeps no requests (issue 40's third per-session round): no other session can bill
    its responses, so nothing read later changes its lines. The folder's output is
    the one written from the packed sessions; a session with ids (Claude Code's,
    OpenCode's) is still packed, since a later session may bill its responses."""
    for agent in ("qwen", "pi", "gemini", "claude", "opencode"):
        root = LOGS / agent
        runs, text = _folder_output(root, "jsonl", workers)
        packed_runs, _csv = _folder_output(root, "csv", workers)
        assert not any(r.jsonl for r in packed_runs)
        whole: list[str] = []
        write_sessions(
            replay_cmds.billed_once_runs(
                [
                    r if r.log is None else dataclasses.replace(r, log=_unpacked(r.log))
                    for r in packed_runs
                ]
            ),
            "jsonl",
            whole.append,
            folder=True,
        )
        assert text == "".join(whole), agent
        read = [r for r in runs[:-1] if r.log is not None]
        assert read, agent
        for r in read:
            assert r.log is not None
            if r.log.ids:
                assert not r.jsonl
                assert r.log.series
        if agent in ("qwen", "pi", "gemini"):
            assert all(r.jsonl and r.log.series == () for r in read if r.log is not None)


def test_a_folder_s_runs_travel_as_their_constructors_arguments() -> None:
    """A worker process sends a folder's runs back pickled (cli.pool): each frozen value
    of them as its constructor's arguments (model.sent_as_fields), which comes back
    equal, packed parts, ledgers and measured usage included (issue 40's third
    per-session round: about 36 against 20 µs a session)."""
    from budgetcore.replay.logs.log_model import LogModel  # noqa: PLC0415
    from budgetcore.replay.logs.model import FileLedger, LogSeries  # noqa: PLC0415
    from budgetcore.replay.logs.session import SessionRun  # noqa: PLC0415
    from budgetcore.replay.logs.usage import MeasuredUsage, ModelUsage  # noqa: PLC0415

    runs, _text = _folder_output(LOGS / "claude", "csv")
    runs += _folder_output(LOGS / "qwen", "jsonl")[0]
    read = [r for r in runs if r.log is not None and r.measured is not None]
    assert any(isinstance(r.log.main.requests, Packed) for r in read if r.log and r.log.series)
    assert any(r.jsonl for r in read)
    for run in read:
        assert run.log is not None
        assert run.measured is not None
        assert run.model is not None
        for value, cls in (
            (run, SessionRun),
            (run.log, ParsedLog),
            (run.measured, MeasuredUsage),
            (run.model, LogModel),
            *((f, FileLedger) for f in run.log.ledger),
            *((m, ModelUsage) for m in run.measured.models),
            *((s, LogSeries) for s in run.log.series),
        ):
            assert value.__reduce__()[0] is cls
        back = pickle.loads(pickle.dumps(run))
        assert back.measured == run.measured
        assert back.log is not None
        assert_same(run.log, back.log)
        assert dataclasses.replace(back, log=run.log) == run


def _unpacked(log: ParsedLog) -> ParsedLog:
    """``log`` with every packed part read back into a tuple."""
    series = tuple(
        dataclasses.replace(
            s, requests=tuple(s.requests), abandoned=tuple(s.abandoned), times=tuple(s.times)
        )
        for s in log.series
    )
    return dataclasses.replace(log, series=series, ids=tuple(log.ids))


def test_a_replayed_session_is_kept_whole() -> None:
    name, log = next(
        (n, lg)
        for n, lg in FIXTURES
        if lg.format == "claude-code" and lg.series and len(lg.main.requests) >= SMALL
    )
    run = run_session(name, log, scenario=None, options=None)
    assert run.result is not None
    assert kept(run) is run
    assert kept(run, jsonl=lambda _r: "written") is run
    usage = run_session(name, log, scenario=None, options=None, replay_it=False)
    assert kept(usage).log is not usage.log


def test_a_one_file_session_is_read_under_its_folder_name_and_not_copied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A folder's session of one file is read under its path inside the folder, as
    the folder shows it: the log the reader made is the run's, with no copy renaming
    it and its ledger (docs/performance.md, issue 40's per-session round). A session
    of several files names them as before (the ledger: inside the folder)."""
    root = str(LOGS / "pi" / "basic")
    name = (
        "sessions/--home-user-proj--/"
        "2025-11-24T10-00-00-000Z_11111111-1111-4111-8111-111111111111.jsonl"
    )
    renamed = replay_cmds._renamed

    def refused(log: ParsedLog, names: list[str]) -> ParsedLog:
        assert len(names) > 1, "a session of one file renamed after its read"
        return renamed(log, names)

    monkeypatch.setattr(replay_cmds, "_renamed", refused)
    settings = (root, None, None, None, False)
    run = replay_cmds._session_run(settings, (name, [name]))
    assert run.log is not None
    assert (run.log.name, run.log.files) == (name, (name,))
    assert [f.name for f in run.log.ledger] == [name]
    root = str(LOGS / "droid" / "totals" / "sessions")
    files = [
        "-home-user-proj/bbbbbbbb-0000-4000-8000-000000000001.settings.json",
        "-home-user-proj/bbbbbbbb-0000-4000-8000-000000000001.jsonl",
    ]
    run = replay_cmds._session_run((root, None, None, None, False), (files[0], files))
    assert run.log is not None
    assert (run.log.name, run.log.files) == (files[0], tuple(files))
    assert [f.name for f in run.log.ledger] == files


def test_a_database_is_told_by_its_first_bytes_without_a_file_object(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked of every session file of a folder: a descriptor and one read, no file
    object (docs/performance.md, issue 40's per-session round)."""
    db = tmp_path / "opencode.db"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE t (x)")
    con.close()
    lines = tmp_path / "s.jsonl"
    lines.write_bytes(b'{"type":"session"}\n')

    def refused(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("a file object was made")

    monkeypatch.setattr(replay_cmds, "open", refused, raising=False)
    assert replay_cmds._is_database(str(db))
    assert not replay_cmds._is_database(str(lines))
    assert not replay_cmds._is_database(str(tmp_path / "missing.db"))


def test_a_database_s_sessions_are_not_copied_for_their_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each session of a database keeps the reader's name (``<file>#<session id>``,
    printable as it is): none is copied to be named again (docs/performance.md, issue
    40's per-session round)."""
    path = tmp_path / "opencode.db"
    _bench_db(path, 3, 4)
    copied: list[str] = []
    replace = dataclasses.replace

    def counted(obj: Any, /, **changes: Any) -> Any:
        if isinstance(obj, ParsedLog):
            copied.append(obj.name)
        return replace(obj, **changes)

    monkeypatch.setattr(dataclasses, "replace", counted)
    logs = list(replay_cmds.log_sessions(str(path), None, "opencode.db"))
    assert [log.name.split("#")[0] for log in logs] == ["opencode.db"] * 3
    assert copied == []


def _shared_output(root: Path, fmt: str, shares: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """A folder read with each database cut into ``shares`` jobs (folder_jobs.shared),
    the jobs run one after another here, joined as the pool's are."""
    monkeypatch.setattr(folder_jobs, "PARALLEL_FROM_BYTES", 0)
    monkeypatch.setenv("BUDGETCORE_WORKERS", str(shares))
    found = walk(str(root), MAX_FOLDER_FILES)
    planned = [(s.name, s.files) for s in plan_folder(list(found.files)).sessions]
    jobs = folder_jobs.shared(str(root), planned, replay_cmds._is_database)
    assert any(len(j) == 3 for j in jobs) is (shares > 1)
    work = partial(replay_cmds._session_runs, (str(root), None, None, None, False))
    runs = folder_jobs.folder_runs(work, jobs, 1, _Quiet(), replay_cmds._keeping(fmt))
    runs = replay_cmds.billed_once_runs(runs)
    out: list[str] = []
    replay_cmds.write_sessions(runs, fmt, out.append, folder=True)
    return "".join(out)


@pytest.mark.parametrize("fmt", ["jsonl", "table"])
@pytest.mark.parametrize(
    "folder",
    [
        "opencode/db",
        "opencode/compaction-db",
        "opencode/v2",
        "opencode/v2-store",
        "opencode/compaction-v2",
        # Agents whose database is read whole: by the first share alone.
        "goose/totals",
        "goose/schema-v5",
        "copilot/store",
    ],
)
def test_a_database_read_in_shares_gives_what_one_read_gives(
    folder: str, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder that is one large OpenCode database was read by one process while
    ccusage's threads shared the cores (issue 40). It is now cut into one share of its
    root sessions per process, in its own order: the output is the one read's, byte for
    byte, whatever the count of shares (more shares than sessions included), and a
    subagent's session stays with its root's. An agent whose reader reads no share
    (Goose, Copilot CLI's store) is read whole by the first."""
    root = LOGS / folder
    whole = _shared_output(root, fmt, 1, monkeypatch)
    for shares in (2, 3, 4):
        assert _shared_output(root, fmt, shares, monkeypatch) == whole, shares


def test_a_generated_database_read_in_shares_by_processes_gives_what_one_read_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random  # noqa: PLC0415

    from tests.helpers import script_module  # noqa: PLC0415

    bench = script_module("bench_agents")
    folder = bench.make_opencode(tmp_path / "opencode", 23, 7, random.Random(40))
    whole = _shared_output(folder, "jsonl", 1, monkeypatch)
    monkeypatch.setattr(folder_jobs, "PARALLEL_FROM_BYTES", 0)
    monkeypatch.setenv("BUDGETCORE_WORKERS", "2")
    found = walk(str(folder), MAX_FOLDER_FILES)
    planned = [(s.name, s.files) for s in plan_folder(list(found.files)).sessions]
    jobs = folder_jobs.shared(str(folder), planned, replay_cmds._is_database)
    assert [j[2] for j in jobs] == [(0, 2), (1, 2)]
    work = partial(replay_cmds._session_runs, (str(folder), None, None, None, False))
    runs = folder_jobs.folder_runs(work, jobs, 2, _Quiet(), replay_cmds._keeping("jsonl"))
    out: list[str] = []
    replay_cmds.write_sessions(replay_cmds.billed_once_runs(runs), "jsonl", out.append, folder=True)
    assert "".join(out) == whole
    assert whole.count('"session"') >= 23


@pytest.mark.parametrize("damage", ["truncated", "empty"])
def test_a_database_read_in_shares_that_fails_is_one_session_not_read(
    tmp_path: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every share of a database that cannot be read (truncated), or that holds no
    session (its tables empty), says so once, as the one read says it: one session not
    read, never one per share."""
    db = (LOGS / "opencode" / "db" / "opencode" / "opencode.db").read_bytes()
    (tmp_path / "opencode").mkdir()
    path = tmp_path / "opencode" / "opencode.db"
    if damage == "truncated":
        path.write_bytes(db[: len(db) // 2])
    else:
        path.write_bytes(db)
        with sqlite3.connect(path) as con:
            for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'"):
                con.execute(f"DELETE FROM {table}")
        con.close()
    whole = _shared_output(tmp_path, "jsonl", 1, monkeypatch)
    assert _shared_output(tmp_path, "jsonl", 3, monkeypatch) == whole
    assert whole.count('"error"') == 1


def test_a_folder_s_sizes_are_the_walk_s_not_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """How many processes read a folder, and which database is read in shares, are
    decided from the sizes the walk found: the parent asked the file system twice more
    for each file's size before the first session was read (docs/performance.md)."""
    from budgetcore.cli import main  # noqa: PLC0415

    source = LOGS / "pi" / "basic" / "sessions" / "--home-user-proj--"
    for i, f in enumerate(sorted(source.iterdir())):
        (tmp_path / f"{i}-{f.name}").write_bytes(f.read_bytes())
    asked: list[str] = []
    getsize = folder_jobs.os.path.getsize

    def counted(path: Any) -> int:
        if str(path).startswith(str(tmp_path)):
            asked.append(str(path))
        return getsize(path)

    monkeypatch.delenv("BUDGETCORE_WORKERS", raising=False)
    monkeypatch.setattr(folder_jobs, "_processes", lambda _jobs: 2)  # as on 2 cores
    monkeypatch.setattr(folder_jobs.os.path, "getsize", counted)
    assert main(["replay", "--log", str(tmp_path), "--usage", "--format", "jsonl"]) == 0
    assert '"total"' in capsys.readouterr().out
    assert asked == []


def test_a_folder_s_session_file_is_opened_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session file of a folder is opened once: the read's own open tells a database
    by its first bytes, read in place (docs/performance.md); a database is still read as one
    (each of its sessions), and a file that cannot be read says so as before."""
    opened: list[str] = []
    os_open = replay_cmds.os.open

    def counted_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(str(path))
        return os_open(path, *args, **kwargs)

    def counted_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(replay_cmds.os, "open", counted_os_open)
    monkeypatch.setattr(replay_cmds, "open", counted_open, raising=False)
    root = str(LOGS / "pi" / "basic")
    name = (
        "sessions/--home-user-proj--/"
        "2025-11-24T10-00-00-000Z_11111111-1111-4111-8111-111111111111.jsonl"
    )
    settings = (root, None, None, None, False)
    [run] = replay_cmds._session_runs(settings, (name, [name]))
    assert run.log is not None
    assert opened == [str(Path(root, *name.split("/")))]
    database = next(LOGS.glob("opencode/**/opencode.db"))
    runs = replay_cmds._session_runs(
        (str(database.parent), None, None, None, False), ("opencode.db", ["opencode.db"])
    )
    assert runs
    assert all(r.log is not None for r in runs)
    [missing] = replay_cmds._session_runs(settings, ("gone.jsonl", ["gone.jsonl"]))
    assert missing.log is None
    assert "cannot be read" in str(missing.error[0])


def test_a_session_file_s_first_bytes_fill_the_read_s_buffer_without_a_copy(
    tmp_path: Path,
) -> None:
    """The first bytes that tell a database are read through the stream's buffer, which
    the read's first line then finds full (readline into an empty buffer scans byte by
    byte: an Amp thread is one line), and the stream is put back at its start; the
    buffer is not copied (``peek`` gave all 64 KiB of it for 16 bytes)."""
    import tracemalloc  # noqa: PLC0415

    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"type":"session"}\n' * 10_000)
    stream = replay_cmds._open(str(path), "log")
    try:
        tracemalloc.start()
        try:
            head = stream.head(16)
            _now, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert head == b'{"type":"session'
        assert peak < 4096
        fd = stream._fh.fileno()
        assert os.lseek(fd, 0, os.SEEK_CUR) == 1 << 16  # the buffer filled, as the read would
        assert stream.readline() == b'{"type":"session"}\n'  # the read starts at the start
    finally:
        stream.close()


def test_a_session_of_one_model_shares_its_usage_with_its_row() -> None:
    """A session of one model (most are) has its total's usage and its model row's as
    one value, so that a worker process sends it back once (pickle's memo); several
    models still add up."""
    from budgetcore.registry.prices import Usage  # noqa: PLC0415
    from budgetcore.replay.logs.model import LogRequest  # noqa: PLC0415

    def request(line: int, model: str) -> LogRequest:
        return LogRequest(
            line=line, context=1_000, output=50, cache_read=200, cache_write=0, model=model
        )

    one = measured_usage([request(1, "gpt-5"), request(2, "gpt-5")])
    assert one.usage is one.models[0].usage
    assert one.usage == Usage(cache_read=400, output=100)
    sent = pickle.loads(pickle.dumps(one))
    assert sent == one
    assert sent.usage is sent.models[0].usage
    two = measured_usage([request(1, "gpt-5"), request(2, "claude-sonnet-4-5")])
    assert two.usage == Usage(cache_read=400, output=100)
    assert all(two.usage is not m.usage for m in two.models)


def test_one_model_s_requests_with_logged_costs_are_summed_by_columns() -> None:
    """Requests of one model that each log a cost (a Goose ledger's calls) are summed
    column by column, their costs added in their order, as the loop adds them; the
    loop summed them one by one, about 0.7 µs a request (40 ms of the bench's 60,000
    ledger calls). The loop is the oracle (tests/property/test_fast_paths_properties.py)."""
    from decimal import Decimal  # noqa: PLC0415

    from budgetcore.replay.logs import usage  # noqa: PLC0415
    from budgetcore.replay.logs.model import LogRequest  # noqa: PLC0415

    requests = tuple(
        LogRequest(
            line=n, context=1_000, output=50, cache_read=200, cache_write=0, model="gpt-5"
        )._replace(logged_cost=cost)
        for n, cost in enumerate((Decimal("0.01"), None, Decimal("0.00"), Decimal(3)), 1)
    )
    summed = usage._one_model(requests, usage.resolve, {})
    assert summed is not None
    assert (summed.logged, summed.logged_requests) == (Decimal("3.01"), 3)
    assert str(summed.logged) == "3.01"


def test_a_model_s_price_tiers_are_worked_out_once_for_a_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry resolves a name once, so every session of a model is priced from one
    prices value: its tiers' rates are worked out once, not twice a session (about 4 µs
    of a small session's measured usage)."""
    from budgetcore.replay.logs import usage  # noqa: PLC0415
    from budgetcore.replay.logs.model import LogRequest  # noqa: PLC0415

    asked: list[object] = []
    real = usage.tier_rates

    def counted(prices: Any) -> Any:
        asked.append(prices)
        return real(prices)

    monkeypatch.setattr(usage, "tier_rates", counted)
    usage._rates_of.cache_clear()
    requests = [
        LogRequest(line=1, context=1_000, output=50, cache_read=200, cache_write=0, model=m)
        for m in ("gpt-5", "gpt-5", "claude-sonnet-4-5")
    ]
    before = [measured_usage(requests[i : i + 1]) for i in range(3)]
    assert len(asked) == 2  # one a model
    assert [measured_usage(requests[i : i + 1]) for i in range(3)] == before
    assert len(asked) == 2


def test_a_folder_s_summary_lines_are_written_by_one_encoder_made_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each session's summary line and the total's are encoded by one encoder made once
    (``json.dumps(..., ensure_ascii=False)`` made one a line, and checked each line for
    cycles it cannot hold), the text the same as ``json.dumps`` gives, non-ASCII names
    included."""
    import json  # noqa: PLC0415

    made: list[object] = []
    real = json.JSONEncoder.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(kwargs)
        real(self, *args, **kwargs)

    monkeypatch.setattr(json.JSONEncoder, "__init__", counted)
    runs, text = _folder_output(LOGS / "qwen", "jsonl")
    lines = text.splitlines()
    assert len(lines) == len(runs) + 1 > 2
    assert made == []
    for line in lines:
        assert json.dumps(json.loads(line), ensure_ascii=False) == line
    wide = {"session": "sessión ☃", "summary": {"log": None}}
    from budgetcore.replay import output  # noqa: PLC0415

    assert output._as_text(wide) == json.dumps(wide, ensure_ascii=False)


def test_a_folder_s_total_merges_its_sessions_usage_once_per_need(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The total line merges every session's usage once where one agent holds them all
    (its agent's row is that merge: it was made twice), and adds usages count by count
    (no usage made for each session added); a mixed folder's rows are each agent's."""
    from budgetcore.registry.prices import Usage  # noqa: PLC0415
    from budgetcore.replay import output  # noqa: PLC0415
    from budgetcore.replay.logs import session  # noqa: PLC0415

    runs, _text = _folder_output(LOGS / "qwen", "jsonl")
    assert len(runs) > 2
    expected = output.total_dict(runs)
    merged: list[int] = []
    real = session.merge_usage

    def counted(parts: Any) -> Any:
        merged.append(1)
        return real(parts)

    def refused(self: Usage, other: Usage) -> Usage:
        raise AssertionError("a usage made for each one added")

    monkeypatch.setattr(session, "merge_usage", counted)
    monkeypatch.setattr(Usage, "__add__", refused)
    assert output.total_dict(runs) == expected
    assert merged == [1]
    assert expected["agents"][0]["requests"] == expected["measured"]["requests"] > 0
    mixed = runs + _folder_output(LOGS / "pi", "jsonl")[0]
    merged.clear()
    rows = output.total_dict(mixed)["agents"]
    assert [r["agent"] for r in rows] == ["qwen-code", "pi"]
    assert len(merged) == 3
    assert sum(r["sessions"] for r in rows) == len(mixed)
