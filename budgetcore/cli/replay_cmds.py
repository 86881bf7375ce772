"""``replay`` (and the session inputs ``report`` shares): turns, generators, logs and
folders of logs (docs/replay.md, "CLI")."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from budgetcore.cli.log_paths import (
    _companions,
    _walked,
    planned_folder,
    read_once,
    with_subagents,
)
from budgetcore.cli.log_stream import LaterStream, LogStream
from budgetcore.cli.shell import (
    LOG_HELP,
    OPTIONS_HELP,
    Unreadable,
    collector_paused,
    ledger_name,
    read_input,
    refuse_by_size,
    scenario_of,
    shown_name,
    unreadable_problem,
)
from budgetcore.errors import Problem, ScenarioError, render_value
from budgetcore.units import counted, format_int

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from budgetcore.core.scenario import Scenario
    from budgetcore.replay.logs.folder import FolderPlan
    from budgetcore.replay.logs.session import SessionRun

__all__ = [
    "cmd_replay",
    "log_sessions",
    "read_log_path",
    "read_log_shown",
    "read_once",
    "replay_arguments",
    "replay_of",
    "write_sessions",
]


def _has_scenario(args: argparse.Namespace) -> bool:
    return args.scenario is not None or getattr(args, "fragment", None) is not None


def _open(path: str, what: str) -> LogStream:
    if path == "-":
        if sys.stdin is None:
            raise Unreadable(f"{what}: standard input is closed")
        return LogStream(sys.stdin.buffer, what, "standard input")
    try:
        # A 64 KiB buffer: readline costs about a third less a line than with the
        # default 8 KiB (docs/replay.md, "Speed"); the lines are the same.
        fh = open(path, "rb", buffering=1 << 16)  # noqa: SIM115 - the stream's to close
    except OSError as exc:
        raise Unreadable(f"{what} file {shown_name(path)} cannot be read: {exc.strerror}") from None
    try:
        refuse_by_size(fh, what)  # a 2 GiB log was read to its 1 GiB limit first
    except ScenarioError:
        fh.close()
        raise
    return LogStream(fh, what, path)


def read_log_path(
    path: str,
    fmt: str | None,
    files: list[str] | None = None,
    *,
    advance: Callable[[int], None] | None = None,
    named: str | None = None,
    opened: LogStream | None = None,
) -> Any:
    """One session from a file (with its subagent files beside it:
    ``<session>/subagents/**/agent-*.jsonl``), streamed. ``advance``: told the bytes
    the files gave since the last step, after each of the reader's steps. ``named``:
    the main file's name as shown, where not its path (a folder's session: its path
    inside the folder). ``opened``: the main file open already (:func:`_session_runs`),
    closed here as the others are."""
    from budgetcore.replay.logs import session_steps  # noqa: PLC0415
    from budgetcore.replay.logs.reader import finish  # noqa: PLC0415

    names = with_subagents(path) if files is None else files
    base = os.path.dirname(names[0])
    if files is None and path != "-":
        names += _companions(path)
    streams: list[LogStream | LaterStream] = [] if opened is None else [opened]
    try:
        if not streams:
            streams.append(_open(names[0], "log"))
        # The others each opened when read (a Copilot CLI export's companions: most
        # never are), so a session of many files stays under the open-file limit.
        streams += [
            LaterStream(partial(_open, n, "log"), n, partial(_read_only, n))
            for n in names[len(streams) :]
        ]
    except BaseException:
        for s in streams:
            s.close()
        raise
    try:
        shown = [
            _shown(os.path.relpath(n, base or ".") if i else n if named is None else named)
            for i, n in enumerate(names)
        ]
        told = [0]

        def each() -> None:
            assert advance is not None
            now = sum(s.taken() for s in streams)
            advance(now - told[0])
            told[0] = now

        with collector_paused():
            steps = session_steps(list(zip(shown, streams, strict=True)), fmt)
            return finish(steps, None if advance is None else each)
    finally:
        for s in streams:
            s.close()


def read_log_shown(path: str, fmt: str | None) -> Any:
    """:func:`read_log_path` with a progress line on a terminal: a large log takes
    seconds to read (cli.progress; after each of the reader's steps, the bytes its
    files gave)."""
    from budgetcore.cli.progress import Progress  # noqa: PLC0415

    size = 0
    if path != "-":
        with contextlib.suppress(OSError):
            size = os.path.getsize(path)
    progress = Progress("reading", size, "bytes")
    if progress.stream is None or not size:  # nobody to show it to
        return read_log_path(path, fmt)
    try:
        return read_log_path(path, fmt, advance=progress.advance)
    finally:
        progress.close()


_shown = ledger_name  # a file's name in the ledger (cli.shell, shared with cli.folder_jobs)


def _log_format(args: argparse.Namespace) -> str | None:
    return None if args.log_format == "auto" else args.log_format


def link_priced(args: argparse.Namespace, scenario: Scenario, options: Any) -> Any:
    """``options`` with the prices of the registry models a page link names
    (``--fragment '#main_model.model=…'``) where the options give none, as the page
    bills its replay (``ui.update.picked_prices``): a model whose I and O the link kept
    as the registry's, a summary model only when it has its own contract."""
    fragment = getattr(args, "fragment", None)
    if fragment is None:
        return options
    from budgetcore.scenario.fragment import parse_fragment  # noqa: PLC0415

    named = {section: name for section, _written, name in parse_fragment(fragment).models}
    if not named:
        return options
    import dataclasses  # noqa: PLC0415

    from budgetcore.registry.models import kept_prices, lookup  # noqa: PLC0415
    from budgetcore.replay.model import ReplayOptions  # noqa: PLC0415

    def chosen(section: str) -> Any:
        return lookup(named[section]) if section in named else None

    options = ReplayOptions() if options is None else options
    main = kept_prices(chosen("main_model"), scenario.main_model)
    summary = kept_prices(chosen("summary_model"), scenario.summary_model)
    changes = {}
    if options.main_prices is None and main is not None:
        changes["main_prices"] = main
    if options.summary_prices is None and summary is not None:
        changes["summary_prices"] = summary
    return dataclasses.replace(options, **changes) if changes else options


def replay_of(args: argparse.Namespace, scenario: Scenario | None) -> tuple[Any, Any, str | None]:
    """The replay of a command's --turns / --generate / --log (and --options), with the
    parsed log when there is one. Malformed turn or log lines are listed on stderr.
    ``scenario`` None (a log without a scenario): the log's own model."""
    from budgetcore.replay.options import parse_options_json  # noqa: PLC0415 - only here
    from budgetcore.replay.simulate import replay  # noqa: PLC0415 - only here

    sources = [s for s in (args.turns, args.generate, args.log) if s is not None]
    if len(sources) != 1:
        raise ScenarioError([Problem.coded("turns", "one-source")])
    text = None if args.options is None else read_input(args.options, "options")
    options = None if text is None else parse_options_json(text)
    if args.log is not None:
        if os.path.isdir(args.log):
            raise ScenarioError([Problem.coded("log", "log-folder-here")])
        log = read_log_shown(args.log, _log_format(args))
        if scenario is not None:
            options = link_priced(args, scenario, options)
        run = _paused_run(log.name, log, scenario=scenario, options=options, series=args.series)
        for problem in log.skipped:
            print(f"skipped: {problem}", file=sys.stderr)
        say_backtest_sets(text, [run])
        return run.result, log, args.series
    if scenario is None:
        scenario = scenario_of(args)
    options = link_priced(args, scenario, options)
    if args.turns is not None:
        from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415

        turns, skipped = parse_turn_lines(read_input(args.turns, "turns"))
    else:
        from budgetcore.replay.turns import generate, parse_generator_json  # noqa: PLC0415

        text = args.generate if args.generate.lstrip().startswith("{") else None
        spec = parse_generator_json(
            text if text is not None else read_input(args.generate, "generate")
        )
        turns, skipped = generate(spec), ()
    for problem in skipped:
        print(f"skipped: {problem}", file=sys.stderr)
    return replay(scenario, turns, options), None, None


def _log_runs(
    args: argparse.Namespace, scenario: Scenario | None, out: str | None = None
) -> tuple[list[Any], bool]:
    """Every session of --log (a file, or each session of a folder). ``out``: the
    output's format, where the sessions of a folder may be written as they are read
    (session.kept)."""
    options = None
    text = None if args.options is None else read_input(args.options, "options")
    if text is not None:
        from budgetcore.replay.options import parse_options_json  # noqa: PLC0415

        options = parse_options_json(text)
    runs, folder = _log_runs_of(args, scenario, options, out)
    say_backtest_sets(text, runs)
    return runs, folder


def say_backtest_sets(text: bytes | None, runs: Sequence[Any]) -> None:
    """Say on stderr which values of the options file ``text`` a log's backtest set
    otherwise for its replay (``replay.whatif.BACKTEST_SETS``), named as the file
    writes them: ``{"cache": false}`` with a log changed nothing, and said nothing."""
    if text is None:  # no options file: nothing to name, nor the what-if to import
        return
    note = backtest_sets_note(text, [backtest_set(r) for r in runs])
    if note:
        print(f"note: {note}", file=sys.stderr)


#: What one session's backtest set for its replay: the sentence that says it
#: (``replay.whatif.backtest_sets_text``), the stable prefix and the cache it set.
BacktestSet = tuple[str, int, bool]


def backtest_set(run: Any) -> BacktestSet | None:
    """What ``run``'s backtest set for its replay (None: not the main series, not
    replayed, or no backtest)."""
    if run.as_run is None or run.what_if is None or run.log is None:
        return None
    from budgetcore.replay.whatif import backtest_sets_text, whatif_options  # noqa: PLC0415

    options = whatif_options(run.log, run.as_run, None)
    if options is None:
        return None
    prefix = options.stable_prefix_tokens
    return backtest_sets_text(run.as_run, prefix, "en"), prefix, options.cache


def backtest_sets_note(text: bytes | None, sets: Sequence[BacktestSet | None]) -> str:
    """The note naming the values of options file ``text`` a backtest set otherwise,
    ``sets`` what each replayed session's set (None: nothing); "" when the file names
    none of them, or only the values the backtest set too (``"cache": true`` where the
    provider's cache rules are recorded)."""
    from budgetcore.inputs.jsonio import load_json  # noqa: PLC0415
    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.replay.whatif import BACKTEST_SETS, backtest_sets_text  # noqa: PLC0415

    said = [s for s in sets if s is not None]
    if text is None or not said:
        return ""
    obj = load_json(text, "options")  # parsed already (parse_options_json): an object
    same = {"cache": {c for _, _, c in said}, "stable_prefix_tokens": {p for _, p, _ in said}}
    written = [
        f'"{k}": {render_value(obj[k])}'
        for k in BACKTEST_SETS
        if k in obj and not (type(obj[k]) in (bool, int) and {obj[k]} == same[k])
    ]
    if not written:
        return ""
    texts = {s for s, _, _ in said}
    head = texts.pop() if len(texts) == 1 else backtest_sets_text(None, None, "en")
    return t("backtest.options-unused", "en", sets=head, options=", ".join(written))


def _log_runs_of(
    args: argparse.Namespace, scenario: Scenario | None, options: Any, out: str | None
) -> tuple[list[Any], bool]:
    if scenario is not None:
        options = link_priced(args, scenario, options)
    fmt = _log_format(args)
    replay_it = not args.usage
    how = (fmt, scenario, options, replay_it)
    if not isinstance(args.log, str):  # several paths: one import (cli.log_paths)
        if args.series not in (None, "main"):
            raise ScenarioError([Problem.of("--series", args.series, "series-one-session")])
        from budgetcore.cli.several_logs import again_note, one_import  # noqa: PLC0415

        got = one_import(args.log, lambda p: _open(p, "log").close())
        for line in again_note(got.again):
            print(line, file=sys.stderr)
        shown = os.path.relpath(got.root)
        return _planned_runs(got.root, shown, got.plan, got.sizes, how=how, out=out), True
    if args.series not in (None, "main") and (
        os.path.isdir(args.log)
        or (_stdin_is_database() if args.log == "-" else _is_database(args.log))
    ):
        # A folder's or a database's sessions each have their own series (their main
        # ones are what is replayed): one other name would be silently passed over.
        raise ScenarioError([Problem.of("--series", args.series, "series-one-session")])
    if args.log == "-" and _stdin_is_database():
        # A database on standard input: each of its sessions is a row, as from its file.
        settings = ("", fmt, scenario, options, replay_it)
        runs = _whole_database(_database_runs("-", "-", settings), "-")
        return billed_once_runs(some_read(runs)), True
    if not os.path.isdir(args.log) and args.log != "-" and _is_database(args.log):
        # A database holds many sessions: each is a row, as in a folder.
        settings = (os.path.dirname(args.log), fmt, scenario, options, replay_it)
        name = os.path.basename(args.log)
        runs = _whole_database(_session_runs(settings, (name, [name])), name)
        return billed_once_runs(some_read(runs)), True
    if not os.path.isdir(args.log):
        log = read_log_shown(args.log, fmt)
        run = _paused_run(
            log.name,
            log,
            scenario=scenario,
            options=options,
            series=args.series,
            replay_it=replay_it,
        )
        for problem in log.skipped:
            print(f"skipped: {problem}", file=sys.stderr)
        return [run], False
    root = args.log
    found = _walked(root)
    folder = planned_folder(root, list(found.files))
    sizes = dict(zip(found.files, found.sizes, strict=True))
    return _planned_runs(root, root, folder, sizes, how=how, out=out), True


def _planned_runs(
    root: str,
    shown: str,
    folder: FolderPlan,
    sizes: dict[str, int],
    *,
    how: tuple[str | None, Any, Any, bool],
    out: str | None,
) -> list[Any]:
    """The runs of a folder's sessions as planned (``folder``: its files' paths
    relative to ``root``, each one's bytes in ``sizes``), each response billed once
    across them: one folder, or several --log paths as the folder holding them all
    (cli.log_paths). ``shown``: the folder as a refusal names it; ``how``: the format,
    scenario, options and whether to replay."""
    from budgetcore.cli.folder_jobs import folder_runs, shared, workers_for  # noqa: PLC0415
    from budgetcore.replay.logs.reader import will_read  # noqa: PLC0415

    fmt, scenario, options, replay_it = how
    will_read(sum(sizes.values()))  # before any worker starts: each inherits it
    jobs: list[Any] = [(s.name, s.files) for s in folder.sessions]
    jobs = shared(root, jobs, _is_database, sizes)
    work = partial(_session_runs, (root, fmt, scenario, options, replay_it))
    workers = workers_for(root, jobs, sizes)
    from budgetcore.cli.progress import Progress  # noqa: PLC0415

    progress = Progress("reading", len(jobs), "sessions")  # on a terminal only
    try:
        again = partial(_run_again, scenario=scenario, options=options, replay_it=replay_it)
        runs = folder_runs(work, jobs, workers, progress, _keeping(out), again=again)
    finally:
        progress.close()
    if not runs:
        raise ScenarioError([no_session(folder, shown)])
    if folder.not_read:
        print(not_read_note(folder), file=sys.stderr)
    return billed_once_runs(some_read(runs))


def some_read(runs: list[Any]) -> list[Any]:
    """The sessions of a folder or a database, or its refusal (exit 2, each session's
    problems named by it, as ``tune`` names them) when not one could be read: a file
    alone that cannot be read exits 2, and a folder of such files exited 0 with a total
    of nothing read (docs/cli.md, "Exit codes")."""
    if any(r.log is not None for r in runs):
        return runs
    raise ScenarioError(
        [
            dataclasses.replace(p, path=f"{r.name}: {p.path}") if r.name else p
            for r in runs
            for p in r.error
        ]
        or [Problem.coded("sessions", "no-session")]
    )


def no_session(folder: Any, root: str) -> Problem:
    """A folder with no session to read: empty, or only files no agent writes (a
    Gemini ``logs.json``, an ``opencode export`` document), which are named rather than
    called missing ("holds no .jsonl file" said nothing of them). An empty one names
    what would have been read, from the table of agents (``Agent.files``): it said
    "holds no .jsonl file" of a folder where a .db or .json file is read too."""
    if not folder.not_read:
        from budgetcore.replay.logs.agents import other_suffixes  # noqa: PLC0415

        return Problem.coded(
            "log", "folder-no-jsonl", folder=shown_name(root), others=other_suffixes()
        )
    return Problem.coded(
        "log",
        "folder-no-session",
        folder=shown_name(root),
        n=format_int(len(folder.not_read)),
        first=folder.not_read[0],
        why=folder.why_not_read[0],
    )


def not_read_note(folder: FolderPlan) -> str:
    """The stderr line naming a folder's files not read as sessions, by why: each
    reason once, after its first file and how many more (a Codex CLI ``.jsonl.zst``
    beside its ``.jsonl``, Kimi CLI's contexts, a file no agent writes), so a user
    learns what each file is, not only that it was left (the page says the same)."""
    from budgetcore.messages import t  # noqa: PLC0415

    said = []
    for why, paths in folder.not_read_groups():
        more = f" and {counted(len(paths) - 1, 'more file')}" if len(paths) > 1 else ""
        said.append(f"{paths[0]}{more} ({t(why, 'en')})")
    return f"not read as sessions: {counted(len(folder.not_read), 'file')}: " + "; ".join(said)


def _paused_run(name: str, log: Any, **settings: Any) -> Any:
    """One session's backtest and replay (``run_session``) with the cycle collector
    paused, as for the read (:func:`~budgetcore.cli.shell.collector_paused`): they
    build values per request (the as-run model's, the turns, the rows) that stay alive
    to the output, which every collection would walk again for nothing. A
    200,000-request Codex rollout: 2 s of CPU less (docs/performance.md)."""
    from budgetcore.replay.logs.session import run_session  # noqa: PLC0415

    if settings.get("replay_it") is False:  # usage only: nothing per request but the read
        return run_session(name, log, **settings)
    with collector_paused():
        return run_session(name, log, **settings)


def _run_again(run: Any, **settings: Any) -> Any:
    """A folder's session measured and replayed again from its log as changed after the
    read (a Copilot CLI store's session marked with its events.jsonl's compactions:
    copilot_store.fold_store_companions)."""
    return _paused_run(run.name, run.log, **settings)


def billed_once_runs(runs: list[Any]) -> list[Any]:
    from budgetcore.replay.logs.session import billed_once  # noqa: PLC0415

    return billed_once(runs)


def _keeping(out: str | None) -> Callable[[Any], Any]:
    """What a folder's read keeps of a session once it is measured (session.kept): in
    JSON Lines, its lines where they are final already."""
    from budgetcore.replay.logs.session import kept  # noqa: PLC0415

    if out != "jsonl":
        return kept
    from budgetcore.replay.output import session_jsonl  # noqa: PLC0415

    return partial(kept, jsonl=partial(session_jsonl, folder=True))


def _is_database(path: str) -> bool:
    """Whether the file is an SQLite database (an agent's, such as OpenCode's
    opencode.db): such a file holds many sessions. Never asked of a path read once
    (:func:`read_once`): its first bytes would be gone from the read; its reader tells
    a database by those bytes as it reads them, as from standard input."""
    from budgetcore.replay.logs.tally import SQLITE_MAGIC  # noqa: PLC0415

    if read_once(path):
        return False
    # Asked of every session file of a folder: a descriptor and one read, where a file
    # object (its buffer, its close) cost about 5 µs a file against 2.
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        return os.read(fd, len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def _uri_path(path: str) -> str:
    """A path as an SQLite URI's path: only what the URI would read otherwise escaped
    (``%``, the query's ``?``, the fragment's ``#``); SQLite takes every other character
    as written. ``urllib.parse.quote`` did the same, and its import (with ``ipaddress``)
    was about 2 % of a database's whole run."""
    return path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")


def _open_mode(path: str) -> str:
    """The URI query that opens ``path`` without writing beside it. Read-only SQLite
    still creates ``-wal`` and ``-shm`` files beside a database in WAL mode (OpenCode's
    ``opencode.db`` is one) when they are not there, and leaves them: the next run met
    them as files it does not read (issue 40, a real OpenCode database). Where no
    write-ahead log is beside a WAL database, every committed page is in the file
    itself, which ``immutable`` reads as is, with no lock and no file created. Where an
    agent keeps its log beside it (it is running, or did not close), the log holds the
    newest pages: the database is opened as SQLite reads it, log included, which
    creates nothing that is not there already but an ``-shm`` index an agent that
    crashed did not leave."""
    from budgetcore.replay.logs.tally import in_wal_mode  # noqa: PLC0415

    try:
        with open(path, "rb") as fh:
            head = fh.read(20)
    except OSError:
        return "?mode=ro"
    if in_wal_mode(head) and not os.path.exists(path + "-wal"):
        return "?mode=ro&immutable=1"
    return "?mode=ro"


def _read_only(path: str) -> Any:
    """The database file open read-only in SQLite (its pages read as asked, not the
    whole file copied into memory first; a write-ahead log beside it is read too, as
    SQLite and ccusage read it), or None: read its bytes instead (no sqlite3, a file
    over the log's size limit, one SQLite cannot open read-only)."""
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    try:
        import sqlite3  # noqa: PLC0415
    except ImportError:
        return None
    try:
        if os.path.getsize(path) > limit_of("log"):
            return None  # the bytes path says so, with the size error
        uri = f"file:{_uri_path(os.path.abspath(path))}{_open_mode(path)}"
        db = sqlite3.connect(uri, uri=True)
    except (OSError, sqlite3.Error):
        return None
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.Error, UnicodeDecodeError):
        # SQLite's message about a damaged schema quotes it, and a quote that is not
        # UTF-8 is raised as a decode error (an internal error before: the bad-input
        # walk of issue 40); its bytes are read, and refused as damaged.
        db.close()
        return None
    return db


def _stdin_is_database() -> bool:
    """Whether standard input starts as an SQLite database does (peeked, not read)."""
    from budgetcore.replay.logs.tally import SQLITE_MAGIC  # noqa: PLC0415

    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:
        return False
    size = len(SQLITE_MAGIC)
    try:
        if hasattr(stdin, "peek"):  # a pipe or a file: buffered
            return bytes(stdin.peek(size)[:size]) == SQLITE_MAGIC
        if stdin.seekable():  # read and put back
            at = stdin.tell()
            head = stdin.read(size)
            stdin.seek(at)
            return bytes(head) == SQLITE_MAGIC
    except (OSError, ValueError):
        pass
    return False


def read_log_sessions(path: str, fmt: str | None, shown: str) -> list[Any]:
    """Every session of a database file, each named ``<shown>#<session id>``."""
    return list(log_sessions(path, fmt, shown))


def log_sessions(
    path: str,
    fmt: str | None,
    shown: str,
    share: tuple[int, int] = (0, 1),
    *,
    usage: bool = False,
) -> Generator[Any, None, None]:
    """:func:`read_log_sessions` one session at a time where the agent's reader hands
    them over so (OpenCode's database): a folder's read measures each and keeps what
    its output needs before the next is read (docs/performance.md). The file is
    closed when the iteration ends or is closed. ``usage``: a usage-only read
    (``--usage``: replay.logs.database_sessions)."""
    from budgetcore.replay.logs import database_sessions, read_sessions  # noqa: PLC0415

    db = _read_only(path) if path != "-" else None
    if db is not None:
        try:
            with collector_paused():
                for log in database_sessions(db, shown, fmt, share, usage=usage):
                    yield _named(log, shown)
        finally:
            db.close()
        return
    if share[0] > 0:  # read from its bytes: whole, by the first share alone
        return
    stream = _open(path, "log")
    try:
        with collector_paused():
            logs = read_sessions([(shown, stream)], fmt)
    finally:
        stream.close()
    for log in logs:
        yield _named(log, shown)


def _named(log: Any, shown: str) -> Any:
    """A database's session named as shown (:func:`_shown`), or ``shown`` where it has
    no name; ``log`` itself where its name is shown as it is, the reader's
    ``<shown>#<session id>`` of printable ids: each session of a database (2,000 in
    the bench's OpenCode folder) was copied for its name (dataclasses.replace)."""
    name = _shown(log.name or shown)
    if name == log.name:
        return log
    import dataclasses  # noqa: PLC0415

    return dataclasses.replace(log, name=name)


def _whole_database(runs: list[Any], name: str) -> list[Any]:
    """The sessions of a database given as --log, or its refusal (exit 2) when it
    could not be read as an agent's at all: one file that is not a log we read, as a
    .jsonl that is none is refused, not a folder's row of it with exit 0."""
    if len(runs) == 1 and runs[0].log is None and runs[0].name == _shown(name) and runs[0].error:
        raise ScenarioError(list(runs[0].error))
    return runs


def _session_runs(
    settings: tuple[str, str | None, Any, Any, bool], job: tuple[Any, ...]
) -> list[Any]:
    """The runs of one job of a folder: one session, or each session of a database."""
    from budgetcore.replay.logs.tally import SQLITE_MAGIC  # noqa: PLC0415

    root = settings[0]
    name, files = job[0], job[1]
    share: tuple[int, int] = job[2] if len(job) > 2 else (0, 1)  # a database's (_shared)
    path = os.path.join(root, *files[0].split("/"))
    if len(files) != 1:
        return [_session_run(settings, (name, files))]
    # A session file is opened once: its first bytes (head) tell a database (read by
    # SQLite from its path), and the read starts where it would. _is_database's own open,
    # read and close cost about 3 µs a file, a tenth of a small session's glue
    # (docs/performance.md). A file that cannot be opened is the read's to say so.
    try:
        stream = _open(path, "log")
    except (Unreadable, ScenarioError):
        return [_session_run(settings, (name, files))]
    try:
        head = stream.head(len(SQLITE_MAGIC))
    except Unreadable:
        stream.close()
        return [_session_run(settings, (name, files))]
    if head != SQLITE_MAGIC:
        return [_session_run(settings, (name, files), stream)]
    stream.close()
    return _database_runs(path, _shown(name), settings, share)


def _database_runs(
    path: str,
    name: str,
    settings: tuple[str, str | None, Any, Any, bool],
    share: tuple[int, int] = (0, 1),
) -> list[Any]:
    """Each session of a database file (or standard input, ``-``), run as it is read,
    each kept as bytes once the next is read (session.kept: with no replay; the last
    is the caller's to keep, :func:`_folder_runs`). A problem that stops the read
    midway makes the file one session that could not be read, as one met first."""
    from budgetcore.replay.logs import NoRequests, unread_agent  # noqa: PLC0415
    from budgetcore.replay.logs.session import SessionRun, kept  # noqa: PLC0415

    _root, fmt, scenario, options, replay_it = settings
    runs: list[Any] = []
    try:
        with contextlib.closing(log_sessions(path, fmt, name, share, usage=not replay_it)) as logs:
            for log in logs:
                try:
                    run = _paused_run(
                        log.name, log, scenario=scenario, options=options, replay_it=replay_it
                    )
                except ScenarioError as exc:  # a session of it with no request to replay
                    free = isinstance(exc, NoRequests) and exc.costs_nothing
                    # Its rows read are its lines, as a file's (the page counted them).
                    lines = exc.lines if isinstance(exc, NoRequests) else None
                    run = SessionRun(
                        log.name,
                        None,
                        error=exc.problems,
                        lines=lines,
                        costs_nothing=free,
                        agent=log.format,
                    )
                if runs:
                    runs[-1] = kept(runs[-1])
                runs.append(run)
    except ScenarioError as exc:  # NoRequests: a database of no session at all
        free = isinstance(exc, NoRequests) and exc.costs_nothing
        who = unread_agent(exc)
        return [SessionRun(name, None, error=exc.problems, costs_nothing=free, agent=who)]
    except Unreadable as exc:
        problem = Problem.coded("log", "unreadable", why=str(exc))
        return [SessionRun(name, None, error=(problem,))]
    return runs


def _session_run(
    settings: tuple[str, str | None, Any, Any, bool],
    job: tuple[str, Sequence[str]],
    opened: LogStream | None = None,
) -> Any:
    """One session of a folder: its run, or why it could not be read. ``opened``: its
    main file open already (read_log_path)."""
    from budgetcore.replay.logs import unread_fields  # noqa: PLC0415
    from budgetcore.replay.logs.session import SessionRun  # noqa: PLC0415

    root, fmt, scenario, options, replay_it = settings
    name, files = job
    paths = [os.path.join(root, *p.split("/")) for p in files]
    name = _shown(name)  # one line: a name may hold a newline (a CSV comment, the table)
    try:
        # The main file is read under its name in the folder, as the folder shows it:
        # a session of one file (most agents') needs no renaming after the read, which
        # copied its log and its ledger's entry (dataclasses.replace) once more each.
        log = read_log_path(paths[0], fmt, files=paths, named=files[0], opened=opened)
        if len(files) > 1:
            log = _renamed(log, files)
        return _paused_run(name, log, scenario=scenario, options=options, replay_it=replay_it)
    except ScenarioError as exc:  # NoRequests: read to its end, its lines counted
        return SessionRun(name, None, error=exc.problems, **unread_fields(exc))
    except Unreadable as exc:
        return SessionRun(name, None, error=(unreadable_problem(exc),))


def _renamed(log: Any, names: Sequence[str]) -> Any:
    """The session's files named by their paths inside the folder, as a file given alone
    is named (:func:`_shown`: quoted when it cannot be printed on one line)."""
    import dataclasses  # noqa: PLC0415

    names = [_shown(n) for n in names]
    ledger = tuple(dataclasses.replace(f, name=n) for f, n in zip(log.ledger, names, strict=False))
    return dataclasses.replace(log, name=names[0], files=tuple(names), ledger=ledger)


def write_sessions(
    runs: Sequence[SessionRun], fmt: str, write: Callable[[str], object], *, folder: bool
) -> None:
    """Every session's output in ``fmt``: the table for people (``cli.replay_table``,
    loaded for it alone) or a machine format of ``replay.output``."""
    # A session written once measured (session.kept) is in JSON Lines, and keeps no
    # requests to write otherwise.
    assert fmt == "jsonl" or not any(r.jsonl for r in runs)
    if fmt == "table":
        from budgetcore.cli.replay_table import write_table  # noqa: PLC0415

        write_table(runs, write, folder=folder)
        return
    from budgetcore.replay.output import write_sessions as write_data  # noqa: PLC0415

    write_data(runs, fmt, write, folder=folder)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.log is not None and len(args.log) == 1:
        args.log = args.log[0]  # one path: read as it always was
    fmt = args.format
    if fmt is None:
        fmt = "table" if sys.stdout is not None and sys.stdout.isatty() else "jsonl"
    scenario = scenario_of(args) if _has_scenario(args) or args.log is None else None
    if args.log is None:
        if args.usage:
            raise ScenarioError([Problem.coded("usage", "usage-needs-log")])
        from budgetcore.replay.logs.session import SessionRun  # noqa: PLC0415

        result, _log, _series = replay_of(args, scenario)
        runs, folder = [SessionRun("", None, None, result)], False
    else:
        if args.turns is not None or args.generate is not None:
            raise ScenarioError([Problem.coded("turns", "one-source")])
        runs, folder = _log_runs(args, scenario, fmt)
        if not folder and runs[0].result is None and not args.usage:
            raise ScenarioError(list(runs[0].error) or [Problem.coded("log", "no-replay")])
    write_sessions(runs, fmt, sys.stdout.write, folder=folder)
    return 0


def replay_arguments(p: argparse.ArgumentParser, *, several: bool = False) -> None:
    """``several``: --log is repeatable, its paths one import (``replay``; ``report``
    takes one session)."""
    p.add_argument("--turns", help='turns as JSON Lines: {"added": N, "required": N, ...}')
    p.add_argument("--generate", help="a generator spec: inline JSON or a JSON file")
    if several:
        p.add_argument(
            "--log",
            action="append",
            help=f"{LOG_HELP} (repeatable: several paths are read as one folder holding "
            "them all, each file once; with no scenario: the default one with each "
            "session's main model)",
        )
    else:
        p.add_argument(
            "--log",
            help=f"{LOG_HELP} (with no scenario: the default one with the log's main model)",
        )
    from budgetcore.replay.logs.model import FORMATS  # noqa: PLC0415 - the agents' keys

    p.add_argument("--log-format", choices=("auto", *FORMATS), default="auto")
    p.add_argument("--series", help="which series of the log (default: main)")
    p.add_argument("--options", help=OPTIONS_HELP)
    p.add_argument(
        "--usage",
        action="store_true",
        help="with --log: only the ledger and the measured usage, no replay",
    )
