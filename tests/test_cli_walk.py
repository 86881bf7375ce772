"""The December CLI walk (round 8): bad inputs through every path, as a hostile user
types them. Each row is one command line and the one line it must end with (exit 2,
nothing on standard output); each row failed before its fix."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from budgetcore.cli.shell import shown_name

ROOT = Path(__file__).resolve().parent.parent
SESSION = "tests/fixtures/claude-session.jsonl"  # relative to ROOT: shown whole
CODEX = "tests/fixtures/codex-rollout.jsonl"
GEN = '{"turns": 3, "added": {"dist": "fixed", "value": 1000}}'


def run(*args: str, stdin: bytes = b"", cwd: Path = ROOT) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "budgetcore", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def refusal(proc: subprocess.CompletedProcess[bytes]) -> str:
    """The one line of a refusal: exit 2, nothing on stdout, one line on stderr (a
    replay's "skipped:" notes about the fixture's own bad lines may come before it)."""
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stdout == b""
    err = [x for x in proc.stderr.decode().splitlines() if not x.startswith("skipped: ")]
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    return err[0]


# (command line, standard input, what the line must say)
BAD_INPUTS: list[tuple[tuple[str, ...], bytes, str]] = [
    # json's own "Invalid control character at" was followed by the catalogue's "at line".
    (
        ("plan", "-"),
        b'{"config": {"\x00": 1}}',
        "scenario is not valid JSON: Invalid control character at line 1 column 14",
    ),
    (
        ("plan", "-"),
        b'{"config": {"trigger',
        "scenario is not valid JSON: Unterminated string starting at line 1 column 13",
    ),
    # Rules that read "scenario give a file ...": a path then a rule, as every other.
    (
        ("plan", "-", "--fragment", ""),
        b"{}",
        "scenario must be a file or --fragment, not both",
    ),
    (
        ("peers", "--model", "claude-sonnet-4-5", "--window", "1000"),
        b"",
        "--model cannot be given with --window/--max-output: give one or the other",
    ),
    (
        ("replay", "--log", SESSION, "--turns", SESSION),
        b"",
        "turns must come from exactly one of --turns, --generate, --log",
    ),
    (("tune", "-"), b"{}", "turns must come from at least one --turns, --generate or --log"),
    # A flag given twice: argparse kept the last (the first --log was never read).
    # (replay's --log repeats since issue 40: its paths are one import; report's not.)
    (
        ("report", "--log", SESSION, "--log", CODEX, "--out", "r"),
        b"",
        f'budgetcore report: argument --log: is given more than once; give it once, got "{CODEX}"'
        " (see --help)",
    ),
    (
        ("plan", "--fragment", "config.trigger_tokens=1", "--fragment", "x=2"),
        b"",
        "budgetcore plan: argument --fragment: is given more than once; give it once,"
        ' got "x=2" (see --help)',
    ),
    (
        (
            *("tune", "-", "--generate", '{"turns": 3}'),
            *("--max-compression", "off", "--max-compression", "3"),
        ),
        b"{}",
        "budgetcore tune: argument --max-compression: is given more than once; give it once"
        " (see --help)",
    ),
    (
        ("models", "--limit", "3", "--limit", "4"),
        b"",
        "budgetcore models: argument --limit: is given more than once; give it once (see --help)",
    ),
    # A constraint flag past its size said "is too long" (no limit, not in the catalogue);
    # --dask had no size limit at all.
    (
        ("tune", "-", "--generate", '{"turns": 3}', "--max-compression", "9" * 2000),
        b"{}",
        "budgetcore tune: argument --max-compression: is 2,000 bytes, larger than its limit"
        " of 1 KiB (1,024 bytes) (see --help)",
    ),
    (
        ("tune", "-", "--generate", '{"turns": 3}', "--dask", "a" * 2000),
        b"{}",
        "budgetcore tune: argument --dask: is 2,000 bytes, larger than its limit of 1 KiB"
        " (1,024 bytes) (see --help)",
    ),
    # Two inputs of standard input: the first read it all, the second got nothing
    # (plan planned without its config, exit 0; replay read the turns as a scenario).
    (
        ("plan", "-", "--config", "-"),
        b"{}",
        "scenario and --config both read standard input (-), which only one of them can;"
        " give the other a file",
    ),
    (
        ("check", "-", "--scenario", "-"),
        b"{}",
        "--scenario and config both read standard input (-), which only one of them can;"
        " give the other a file",
    ),
    (
        ("replay", "-", "--turns", "-"),
        b'{"added": 5}',
        "scenario and --turns both read standard input (-), which only one of them can;"
        " give the other a file",
    ),
    (
        ("tune", "--fragment", "", "--turns", SESSION, "--turns", "-", "--log", "-"),
        b"",
        "--turns and --log both read standard input (-), which only one of them can;"
        " give the other a file",
    ),
    # A flag of --log without --log was ignored (report --usage wrote a report, exit 0).
    (("replay", "-", "--generate", GEN, "--series", "main"), b"{}", "--series needs --log"),
    (("tune", "-", "--generate", GEN, "--log-format", "codex"), b"{}", "--log-format needs --log"),
    (("report", "-", "--out", "never", "--usage"), b"{}", "--usage needs --log"),
    (("replay", "-", "--turns", SESSION, "--usage"), b"{}", "--usage needs --log"),
    # A number inside a quoted object was shown as a string: {"trigger_tokens": "0.5"}.
    (
        ("replay", "--fragment", "", "--generate", GEN, "--options", "-"),
        b'{"config": {"trigger_tokens": 0.5, "n": 1e999999999}}',
        'options.config is not a replay option, got {"trigger_tokens": 0.5, "n": 1e999999999}',
    ),
    # An empty --out is the current folder to pathlib: report wrote its 35 files there.
    (
        ("report", "-", "--out", ""),
        b"{}",
        'budgetcore report: argument --out: must name a file or folder, got "" (see --help)',
    ),
    (
        ("cases", "--out", ""),
        b"",
        'budgetcore cases: argument --out: must name a file or folder, got "" (see --help)',
    ),
    # --series on a folder or a database was passed over: each session's main series
    # was replayed, exit 0 (the twelfth session, after Cline's summed-usage series).
    (
        ("replay", "--log", "tests/fixtures/logs/claude/05-subagents-dir-2.1", "--series", "x"),
        b"",
        "--series picks a series of one session: give --log that session's file, not a"
        ' folder, a database of sessions or several paths, got "x"',
    ),
    (
        ("replay", "--log", "-", "--usage", "--series", "summed usage"),
        (ROOT / "tests/fixtures/logs/opencode/compaction-db/opencode/opencode.db").read_bytes(),
        "--series picks a series of one session: give --log that session's file, not a"
        ' folder, a database of sessions or several paths, got "summed usage"',
    ),
    # An empty file name showed as nothing: "log file  cannot be read".
    (("replay", "--log", ""), b"", 'log file "" cannot be read: No such file or directory'),
    (("plan", ""), b"", 'scenario file "" cannot be read: No such file or directory'),
    # A distribution's name that is a list or an object was looked up in a dict:
    # "internal error, please report it: TypeError: unhashable type" (the seventh walk).
    (
        ("replay", "--fragment", "", "--generate", '{"turns": 3, "added": {"dist": []}}'),
        b"",
        "generate.added.dist must be one of fixed, uniform, triangular, choice, got []",
    ),
    (
        ("replay", "--fragment", "", "--generate", '{"turns": 3, "added": 1000}', "--options", "-"),
        b'{"timing": {"gap_ms": {"dist": {"a": 1}}}}',
        "options.timing.gap_ms.dist must be one of fixed, uniform, triangular, choice,"
        ' got {"a": 1}; options.timing.duration is required: fixed_s, or both rates',
    ),
]


@pytest.mark.parametrize(("args", "stdin", "message"), BAD_INPUTS)
def test_a_bad_input_is_one_line_naming_it(
    args: tuple[str, ...], stdin: bytes, message: str
) -> None:
    assert refusal(run(*args, stdin=stdin)) == message


@pytest.mark.parametrize(
    ("content", "tables"),
    [
        (b"SQLite format 3\x00" + b"\x5a" * 5000, "none readable"),
        (None, "foo"),
    ],
)
def test_a_database_of_no_agent_given_as_log_is_refused(
    tmp_path: Path, content: bytes | None, tables: str
) -> None:
    """A single .db that is no agent's was a folder's row of it, with exit 0, where a
    .jsonl that is no agent's log exits 2."""
    path = tmp_path / "some.db"
    if content is None:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE foo (a)")
        db.commit()
        db.close()
    else:
        path.write_bytes(content)
    for args in (("--log", str(path)), ("--log", str(path), "--usage")):
        message = f"log is an SQLite database, but not one of an agent we read (tables: {tables})"
        assert refusal(run("replay", *args)) == message
    with path.open("rb") as stdin:
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "replay", "--log", "-"],
            stdin=stdin,
            capture_output=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    assert refusal(proc) == message


def test_a_folder_of_sessions_none_of_which_tune_can_read_names_each(tmp_path: Path) -> None:
    """Of 10,000 empty files tune said "log is empty (no line with an entry)" again and
    again, naming none, then "and 9990 more problems"."""
    for i in range(12):
        (tmp_path / f"{i:02}.jsonl").write_bytes(b"")
    line = refusal(run("tune", "--fragment", "", "--log", str(tmp_path)))
    empty = "log is empty (no line with an entry)"
    assert line.startswith(f"00.jsonl: {empty}; 01.jsonl: {empty}; 02.jsonl: {empty}"), line
    shown = line.count(empty)
    assert line.endswith(f"; and {12 - shown:,} more problems"), line


@pytest.mark.parametrize(
    ("value", "window", "pct"),
    [
        # str.isdigit() holds for "²": int() raised, "internal error, please report it".
        ('"²"', "whole number of tokens", "number"),
        # Full-width digits and an underscore: JavaScript's Number/parseFloat read NaN
        # (or 1 for "1_0"), where Decimal read 150,000, 12 and 10: "valid".
        ('"１２"', "whole number of tokens", "number"),
        ('"1_0"', "whole number of tokens", "number"),
    ],
)
def test_a_claude_code_setting_in_digits_no_runtime_reads_is_refused(
    tmp_path: Path, value: str, window: str, pct: str
) -> None:
    path = tmp_path / "settings.json"
    env = f'"CLAUDE_CODE_AUTO_COMPACT_WINDOW": {value}, "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE": {value}'
    path.write_text('{"env": {' + env + "}}", encoding="utf-8")
    line = refusal(run("check", "--runtime", "claude-code", str(path)))
    assert line.startswith("2 problems in "), line
    assert line.endswith(
        f": env.CLAUDE_CODE_AUTO_COMPACT_WINDOW must be a {window},"
        f" got {value}; env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE must be a {pct}, got {value}"
    ), line


GOOSE_DB = ROOT / "tests/fixtures/logs/goose/totals/goose/data/sessions/sessions.db"


def test_a_goose_time_in_superscript_digits_is_no_time_not_an_internal_error(
    tmp_path: Path,
) -> None:
    """str.isdigit() holds for "²", int() refuses it: the reader's time raised, and the
    command ended with "internal error, please report it" (exit 1)."""
    path = tmp_path / "sessions.db"
    path.write_bytes(GOOSE_DB.read_bytes())
    db = sqlite3.connect(path)
    db.execute("UPDATE sessions SET created_at = '²', updated_at = '²'")
    db.execute("UPDATE messages SET created_timestamp = '²'")
    db.commit()
    db.close()
    proc = run("replay", "--log", str(path), "--usage", "--format", "jsonl")
    assert proc.returncode == 0, proc.stderr
    assert b"internal error" not in proc.stderr
    assert b'"session": "sessions.db#20251124_1"' in proc.stdout


def test_a_worker_count_in_superscript_digits_is_ignored_like_any_other_text(
    tmp_path: Path,
) -> None:
    """BUDGETCORE_WORKERS="²" raised in int() (an internal error); "abc" was ignored."""
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_bytes(Path(ROOT / SESSION).read_bytes())
    results = []
    for workers in ("²", "abc"):
        proc = subprocess.run(
            [sys.executable, "-m", "budgetcore", "replay", "--log", str(tmp_path)],
            capture_output=True,
            cwd=ROOT,
            timeout=120,
            check=False,
            env={**os.environ, "BUDGETCORE_WORKERS": workers},
        )
        assert proc.returncode == 0, proc.stderr
        results.append(proc.stdout)
    assert results[0] == results[1]


def test_a_copilot_count_in_superscript_digits_is_a_malformed_count() -> None:
    """Copilot CLI's OpenTelemetry counts may be text ("120"): "²" passed isdigit() and
    raised in int(), past the reader's own malformed-line problem."""
    from budgetcore.replay.logs import copilot  # noqa: PLC0415

    assert copilot._number({"gen_ai.usage.input_tokens": "120"}, "gen_ai.usage.input_tokens") == 120
    with pytest.raises(copilot._NotACount) as caught:
        copilot._number({"gen_ai.usage.input_tokens": "²"}, "gen_ai.usage.input_tokens")
    problem = caught.value.problem
    assert (problem.path, problem.code, problem.value) == (
        "attributes.gen_ai.usage.input_tokens",
        "log-line-count",
        '"²"',
    )


def _pipe_argv(argv: list[str], content: bytes) -> subprocess.CompletedProcess[bytes]:
    """``argv`` with ``{P}`` a pipe that gives ``content`` once (bash's ``<(cat F)`` is
    such a pipe, at /dev/fd/N): only one open of it sees the bytes."""
    read, write = os.pipe()
    os.set_inheritable(read, True)
    path = f"/dev/fd/{read}"
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "budgetcore", *(a.replace("{P}", path) for a in argv)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            pass_fds=(read,),
        )
    finally:
        os.close(read)
    with os.fdopen(write, "wb") as fh:
        fh.write(content)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "--log", "{P}", "--usage", "--format", "jsonl"],
        ["replay", "--fragment", "", "--log", "{P}", "--format", "jsonl"],
        ["tune", "--fragment", "", "--log", "{P}", "--k", "40000", "--s", "8192"],
        ["tune", "--log", "{P}", "--k", "40000", "--s", "8192"],
    ],
)
def test_a_log_through_a_pipe_is_read_whole(argv: list[str]) -> None:
    # Whether the log was a database was asked by opening it and reading its first
    # bytes: from a pipe those bytes (a whole 8 KiB buffer) were gone from the read,
    # which then counted 1 request of 5 and exit 0 (the seventh walk, <(cat F)). tune
    # with no scenario read its one log twice, and the second read found it empty.
    whole = run(*[a.replace("{P}", SESSION) for a in argv])
    piped = _pipe_argv(argv, (ROOT / SESSION).read_bytes())
    assert whole.returncode == 0, whole.stderr
    assert piped.returncode == 0, piped.stderr
    named = re.compile(rb"/dev/fd/[0-9]+")
    assert named.sub(SESSION.encode(), piped.stderr) == whole.stderr
    assert _requests(piped.stdout) == _requests(whole.stdout)


def _requests(out: bytes) -> list[object]:
    """The request and turn counts an output states, wherever they are."""
    import json  # noqa: PLC0415

    found: list[object] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("requests", "turns", "sessions"):
                    found.append((key, item))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for line in out.splitlines():
        walk(json.loads(line))
    return found


def test_tune_with_no_scenario_reads_its_log_from_standard_input() -> None:
    whole = run("tune", "--log", SESSION, "--k", "40000", "--s", "8192")
    piped = run(
        "tune", "--log", "-", "--k", "40000", "--s", "8192", stdin=(ROOT / SESSION).read_bytes()
    )
    assert piped.returncode == 0, piped.stderr  # was 2: "log is empty (no line with an entry)"
    assert _requests(piped.stdout) == _requests(whole.stdout)


def _opencode_without_messages(folder: Path, *, rows: bool = True) -> Path:
    """OpenCode's newer database with its session_message table gone: two sessions in
    its session table and none of their messages anywhere (``rows`` False: every row
    deleted too, a database that holds nothing)."""
    source = ROOT / "tests/fixtures/logs/opencode/compaction-v2/opencode/opencode.db"
    path = folder / "opencode" / "opencode.db"
    path.parent.mkdir(parents=True)
    path.write_bytes(source.read_bytes())
    db = sqlite3.connect(path)
    db.execute("DROP TABLE session_message")
    if not rows:
        db.execute("DELETE FROM session")
        db.execute("DELETE FROM message")
    db.commit()
    db.close()
    return path


_NO_SESSION = (
    "is a database of OpenCode, but no session in it has a message (tables: message, session)"
)


def test_a_database_none_of_whose_sessions_has_a_message_is_refused(tmp_path: Path) -> None:
    # It read as "sessions": 0 and a measured cost of "0", exit 0: free, where its two
    # sessions' messages were simply not there (the seventh walk, a table dropped).
    path = _opencode_without_messages(tmp_path)
    for args in (("--log", str(path)), ("--log", str(path), "--usage")):
        assert refusal(run("replay", *args)) == f"log {_NO_SESSION}"
    with path.open("rb") as stdin:
        piped = subprocess.run(
            [sys.executable, "-m", "budgetcore", "replay", "--log", "-", "--usage"],
            stdin=stdin,
            capture_output=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    assert refusal(piped) == f"log {_NO_SESSION}"


def test_a_folder_whose_database_has_no_session_with_a_message_costs_unknown(
    tmp_path: Path,
) -> None:
    import json  # noqa: PLC0415

    # The folder said "holds no .jsonl file" (exit 2), beside its opencode.db.
    _opencode_without_messages(tmp_path)
    shutil.copy(ROOT / SESSION, tmp_path / "claude.jsonl")
    proc = run("replay", "--log", str(tmp_path), "--usage", "--format", "jsonl")
    assert proc.returncode == 0, proc.stderr
    total = json.loads(proc.stdout.splitlines()[-1])["total"]
    assert total["measured"]["cost"] is None  # unknown, the Claude Code file's beside it
    assert total["measured"]["known_cost"] != "0"
    [unread] = total["sessions_unreadable"]
    assert unread["session"] == "opencode/opencode.db"
    assert _NO_SESSION in unread["problems"][0]
    assert not unread["costs_nothing"]


def test_a_database_of_no_row_at_all_costs_nothing_in_a_folder(tmp_path: Path) -> None:
    import json  # noqa: PLC0415

    _opencode_without_messages(tmp_path, rows=False)
    shutil.copy(ROOT / SESSION, tmp_path / "claude.jsonl")
    proc = run("replay", "--log", str(tmp_path), "--usage", "--format", "jsonl")
    total = json.loads(proc.stdout.splitlines()[-1])["total"]
    assert total["measured"]["cost"] == total["measured"]["known_cost"] != "0"
    [unread] = total["sessions_unreadable"]
    assert unread["costs_nothing"]


def test_tune_of_a_folder_names_its_database_of_no_session_and_tunes_the_rest(
    tmp_path: Path,
) -> None:
    # The database was passed over in silence; a damaged one ended the whole tune.
    _opencode_without_messages(tmp_path)
    shutil.copy(ROOT / SESSION, tmp_path / "claude.jsonl")
    proc = run("tune", "--fragment", "", "--log", str(tmp_path), "--k", "40000", "--s", "8192")
    assert proc.returncode == 0, proc.stderr
    assert f"not replayed: opencode/opencode.db: log {_NO_SESSION}" in proc.stderr.decode()


def _sparse(path: Path, size: int, head: bytes = b"") -> Path:
    """A file of ``size`` bytes that takes no room on disk (``truncate``)."""
    path.write_bytes(head)
    os.truncate(path, size)
    return path


@pytest.mark.parametrize(
    ("argv", "limit"),
    [
        (
            ["plan", "{F}"],
            "scenario is {n} bytes, larger than its limit of 1 MiB (1,048,576 bytes)",
        ),
        (["check", "{F}"], "1 problem in {F}: config is {n} bytes, larger than its limit of 1 MiB"),
        (
            ["replay", "--fragment", "", "--generate", "{F}"],
            "generate is {n} bytes, larger than its limit of 64 KiB (65,536 bytes)",
        ),
    ],
)
def test_a_file_above_its_limit_is_refused_by_its_size(
    tmp_path: Path, argv: list[str], limit: str
) -> None:
    # It said "is larger than its limit" only, after reading up to the limit: the
    # file's size is known before a byte is read, as the page says it (the seventh walk).
    big = str(_sparse(tmp_path / "big.json", 300 * 1024 * 1024))
    line = refusal(run(*[a.replace("{F}", big) for a in argv]))
    # A long path is shortened in a one-line message (shell.shown_name), as under xdist.
    assert line.startswith(limit.format(F=shown_name(big), n="314,572,800")), line


def test_a_log_above_its_limit_is_refused_by_its_size_before_it_is_read(tmp_path: Path) -> None:
    # A log of 2 GiB whose first lines are a Claude Code session's was read to its
    # 1 GiB limit before it was refused (the seventh walk: truncate -s 2G).
    head = (ROOT / SESSION).read_bytes()
    big = str(_sparse(tmp_path / "big.jsonl", 2 * 1024**3, head))
    said = "log is 2,147,483,648 bytes, larger than its limit of 1 GiB (1,073,741,824 bytes)"
    assert refusal(run("replay", "--log", big, "--usage")) == said
    assert refusal(run("tune", "--log", big)) == said


def test_the_page_lists_a_database_of_no_session_as_not_read(tmp_path: Path) -> None:
    # The page's import listed nothing for it: the folder read as its other files alone.
    from budgetcore.ui.replay.state import ReplayPanel, with_logs  # noqa: PLC0415

    db = _opencode_without_messages(tmp_path).read_bytes()
    panel = with_logs(ReplayPanel(), (("x/opencode/opencode.db", db),))
    [loaded] = panel.logs
    assert loaded.log is None
    assert _NO_SESSION in str(loaded.error[0])
    assert not loaded.costs_nothing


def test_a_file_name_with_a_newline_stays_on_its_line(tmp_path: Path) -> None:
    # A session file named "a\nb.jsonl" in a folder broke the CSV's "# name: key,value"
    # comment lines in two (the second no comment) and the table's session and ledger
    # lines, where the same file given alone is named quoted (the seventh walk).
    shutil.copy(ROOT / SESSION, tmp_path / "a\nb.jsonl")
    csv_out = run("replay", "--log", str(tmp_path), "--usage", "--format", "csv")
    assert csv_out.returncode == 0, csv_out.stderr
    lines = csv_out.stdout.decode().splitlines()
    assert all(x.startswith("# ") for x in lines[1:]), [x for x in lines if x[:2] != "# "]
    table = run("replay", "--log", str(tmp_path), "--usage", "--format", "table")
    text = table.stdout.decode()
    assert 'Session "a\\nb.jsonl" (Claude Code)\n' in text
    assert '\n  "a\\nb.jsonl": 20 lines\n' in text
    grid = ("--k", "40000", "--s", "8192", "--format", "table")
    tune = run("tune", "--fragment", "", "--log", str(tmp_path), *grid)
    assert 'As run: "a\\nb.jsonl": measured' in tune.stdout.decode()


_DAMAGED = [
    # (the database's path in its data folder, the fixture, how it is damaged, the line)
    (
        "opencode/opencode.db",
        "opencode/db/opencode/opencode.db",
        "truncate",
        "log is named as OpenCode's database (opencode.db), but no table of it can be read:"
        " it is truncated or damaged",
    ),
    (
        "opencode/opencode.db",
        "opencode/db/opencode/opencode.db",
        "DROP TABLE message",
        "log is named as OpenCode's database (opencode.db), but lacks the tables its reader"
        " needs (it has: part, session)",
    ),
    (
        "goose/data/sessions/sessions.db",
        "goose/totals/goose/data/sessions/sessions.db",
        "DROP TABLE sessions",
        "log is named as Goose's database (sessions.db), but lacks the tables its reader"
        " needs (it has: messages, sqlite_sequence)",
    ),
    (
        "copilot/session-store.db",
        "copilot/store/copilot/session-store.db",
        "truncate",
        "log is named as Copilot CLI's database (session-store.db), but no table of it can"
        " be read: it is truncated or damaged",
    ),
]


@pytest.mark.parametrize(("where", "fixture", "damage", "said"), _DAMAGED)
def test_a_damaged_database_is_refused_naming_its_agent(
    tmp_path: Path, where: str, fixture: str, damage: str, said: str
) -> None:
    # It said "not one of an agent we read (tables: none readable)": no agent named,
    # nothing said of what is missing (the seventh walk, damaged fixtures).
    path = tmp_path / where
    path.parent.mkdir(parents=True)
    data = (ROOT / "tests/fixtures/logs" / fixture).read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    else:
        path.write_bytes(data)
        db = sqlite3.connect(path)
        db.execute(damage)
        db.commit()
        db.close()
    assert refusal(run("replay", "--log", str(path), "--usage")) == said
