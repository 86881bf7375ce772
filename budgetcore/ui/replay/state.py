"""The page's session replay panel (docs/spec.md §12): its form, its turn source and its replay.

The panel is a value (:class:`ReplayPanel`) inside the page state, changed only by
``budgetcore.ui.update.reduce``. Every field text goes through :func:`parse_field_text`
(an :class:`~budgetcore.errors.Problem` by the field on a problem, as in the main form);
the turns and options are then built from the valid values and the scenario on screen.
An imported log is parsed when it is loaded and only its numbers are kept: the text
is never part of the state.

The background-timing fields (docs/spec.md §15) are read by the parse functions the
CLI's options use (``replay.options.parse_timing`` / ``parse_retries``), so the page
and ``--options`` refuse the same values with the same coded problem; the timeouts
are the scenario's own limits fields, typed here or in the main form alike.

The replay runs in the update step, never in the view: :func:`refreshed` stores the
result (:class:`ReplayRun`) in the panel, computed once per change of the scenario,
the turns or the options, and the view only draws it.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from budgetcore.core.scenario import Scenario
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.text import limit_of, too_large
from budgetcore.ui.form import IssueError, Param
from budgetcore.ui.replay.fields import (
    GENERATOR_PATHS,
    OPTION_PATHS,
    REPLAY_FIELDS,
    TIMING_PATHS,
    option_issue,
    parse_field_text,
)
from budgetcore.units import format_int

if TYPE_CHECKING:  # the replay modules load when the panel first draws, not on boot
    from budgetcore.registry.prices import Prices
    from budgetcore.replay.asrun import AsRun
    from budgetcore.replay.background import Retries, Timing
    from budgetcore.replay.logs import ParsedLog
    from budgetcore.replay.logs.folder import SessionFiles
    from budgetcore.replay.logs.log_model import LogModel
    from budgetcore.replay.logs.usage import MeasuredUsage
    from budgetcore.replay.model import Replay, ReplayOptions, Turn
    from budgetcore.replay.prepared import Known
    from budgetcore.replay.turns import GeneratorSpec
    from budgetcore.replay.whatif import WhatIf
    from budgetcore.ui.picker import PickerState

__all__ = [
    "FILE_BOXES",
    "NONE_PICKED",
    "LoadedLog",
    "Picked",
    "ReplayPanel",
    "ReplayRun",
    "Sessions",
    "Source",
    "due",
    "import_steps",
    "initial_panel",
    "log_prices",
    "on_backtest",
    "options_of",
    "refreshed",
    "run_is_current",
    "session_turns",
    "source_waits",
    "timing_json",
    "turns_of",
    "with_imported",
    "with_log",
    "with_logs",
    "with_texts",
    "with_turn_lines",
]


@dataclass(frozen=True, slots=True)
class Source:
    """What the chosen turn source gave: turns, or why there are none."""

    turns: tuple[Turn, ...] = ()
    problems: tuple[Problem, ...] = ()  # lines skipped (turns or log)
    error: tuple[Problem, ...] = ()  # the source is unusable (no turn at all)


@dataclass(frozen=True, slots=True)
class LoadedLog:
    """One session of an import: its numbers (never its text), or why it is unusable."""

    name: str
    log: ParsedLog | None = None
    error: tuple[Problem, ...] = ()
    measured: MeasuredUsage | None = None
    model: LogModel | None = None  # the log's main model and the scenario it implies
    lines: int | None = None  # lines read of a file with no usable request
    # Requests another session of the import bills (replay.logs.session.billed_once):
    # (that session's name, requests); ``measured`` leaves them out.
    elsewhere: tuple[tuple[str, int], ...] = ()
    as_run: AsRun | None = None  # the backtest (docs/spec.md §17), as the CLI's
    # (file, line) of the requests in ``elsewhere``: out of the backtest and the what-if.
    excluded: frozenset[tuple[int, int]] = frozenset()
    # Not read, but nothing in it may carry a bill (replay.logs.agents.costs_nothing):
    # the import's cost stays known, as the CLI's folder total.
    costs_nothing: bool = False
    agent: str = ""  # not read: whose file it is where the read told (LogUnread.agent)
    # Not read: compactions it records of a session another bills (NoRequests.marks).
    marks: tuple[tuple[int, int | None], ...] = ()
    billed_session: str = ""  # Not read: that session's id (NoRequests.billed_session)


@dataclass(frozen=True, slots=True, eq=False)
class ReplayRun:
    """The replay of what the panel shows, computed in the update step
    (:func:`refreshed`), once per change of its inputs; the view only draws it.

    Compared by identity: a new value is made exactly when the inputs changed, so the
    shell can tell "redraw" from "nothing new" without comparing 500 rows."""

    scenario: Scenario | None  # the scenario replayed (None: paused)
    source_key: object  # what the turns came from (generator values, the paste, the log)
    options: ReplayOptions | None
    source: Source = Source()
    result: Replay | None = None
    error: tuple[Problem, ...] = ()  # the replay refused its inputs (a clock without times)
    paused: bool = False  # an input is invalid: the replay waits (and says so)
    # A log's main series as a what-if on its as-run baseline (docs/spec.md §17), the
    # CLI's ``SessionRun.what_if`` for the same file, scenario and options.
    what_if: WhatIf | None = None
    # What the replay found out about its turns whatever the scenario (valid; with a
    # clock, their timeline): the next replay of equal turns starts from it, so a timed
    # redraw does not work it out again (replay.prepared.Known, a value key).
    known: Known | None = None


#: The replay's file boxes (their ids): a pick in one forgets the other's.
FILE_BOXES = ("replay-file", "replay-folder")


@dataclass(frozen=True, slots=True)
class ReplayPanel:
    open: bool = False
    source: str = "generate"
    texts: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, object] = field(default_factory=dict)
    issues: Mapping[str, Problem] = field(default_factory=dict)
    turns_text: str = ""
    pasted: Source = Source()
    logs: tuple[LoadedLog, ...] = ()  # one per session of the import
    log_index: int = 0  # the session the charts replay
    # Files of the import not read as sessions, each with why (a catalogue key,
    # replay.not-read.*: FolderPlan.why_not_read, and SQLite's files beside a database).
    log_not_read: tuple[tuple[str, str], ...] = ()
    log_model: bool = True  # the switch: the scenario takes the log's main model
    # I and O texts and the main picker before the switch took over (given back after).
    saved_model: tuple[str, str, PickerState] | None = None
    scrub: int = 0  # the scrubbed turn (1-based); 0: the peak turn
    run: ReplayRun | None = None  # the replay of the current inputs (see refreshed)
    # The file or folder box last picked in ("replay-file", "replay-folder"; "" for
    # none) and its files' names: the status beside the boxes, in the page's language.
    files_picked: tuple[str, tuple[str, ...]] = ("", ())
    # The timing and retries options parsed from ``values`` (None: the box is off, or
    # they do not parse): made by with_texts, the one way values change, so that an input
    # reads them four times (options_of, from the job's due and refreshed) without
    # parsing the timing's JSON each time.
    timed: tuple[Timing | None, Retries | None] | None = None

    @property
    def stale(self) -> bool:
        return bool(self.issues)

    @property
    def chosen(self) -> LoadedLog | None:
        if not self.logs:
            return None
        return self.logs[min(max(self.log_index, 0), len(self.logs) - 1)]

    @property
    def log(self) -> ParsedLog | None:
        chosen = self.chosen
        return None if chosen is None else chosen.log

    @property
    def log_name(self) -> str:
        chosen = self.chosen
        return "" if chosen is None else chosen.name

    @property
    def log_error(self) -> tuple[Problem, ...]:
        chosen = self.chosen
        return () if chosen is None else chosen.error


def with_texts(panel: ReplayPanel, updates: Mapping[str, str]) -> ReplayPanel:
    """Set field texts, each through :func:`parse_field_text`; plus the one cross rule
    (a range's low at most its high)."""
    texts, values = dict(panel.texts), dict(panel.values)
    issues = {k: v for k, v in panel.issues.items() if k != "replay.high"}
    for path, text in updates.items():
        if path not in REPLAY_FIELDS:
            continue
        texts[path] = text
        try:
            values[path] = parse_field_text(path, text)
            issues.pop(path, None)
        except IssueError as exc:
            issues[path] = exc.issue
    low, high = values.get("replay.low"), values.get("replay.high")
    if (
        values.get("replay.dist") != "fixed"
        and "replay.low" not in issues
        and "replay.high" not in issues
        and isinstance(low, int)
        and isinstance(high, int)
        and low > high
    ):
        params: tuple[Param, ...] = (
            ("value", format_int(high), False),
            ("other", "label.replay.low", True),
            ("other_value", format_int(low), False),
        )
        issues["replay.high"] = Problem.page("core.at-least", params, ("replay.high",))
    gap_high = issues.get("replay.gap_high")
    if gap_high is not None and gap_high.code == _ORDER:  # the cross rule's, redone
        del issues["replay.gap_high"]
    gap_issue = _gap_order(values, issues)
    if gap_issue is not None:
        issues["replay.gap_high"] = gap_issue
    timed, problems = _parsed_timing(values) if values.get("replay.timing") is True else (None, [])
    return dataclasses.replace(
        panel,
        texts=texts,
        values=values,
        issues=issues,
        scrub=0,
        timed=None if problems else timed,
    )


def _parsed_timing(
    values: Mapping[str, object],
) -> tuple[tuple[Timing | None, Retries | None] | None, list[Problem]]:
    """The ``timing`` and ``retries`` options of the panel's values (None while the box
    is off), by the CLI's own parse of the same JSON, and its problems."""
    raw = timing_json(values)
    if raw is None:
        return None, []
    from budgetcore.replay.options import parse_retries, parse_timing  # noqa: PLC0415

    problems: list[Problem] = []
    timed = (
        parse_timing(raw["timing"], "options.timing", problems),
        parse_retries(raw["retries"], "options.retries", problems),
    )
    return timed, problems


_ORDER = "core.at-least"


def _gap_order(values: Mapping[str, object], issues: Mapping[str, Problem]) -> Problem | None:
    """The gap's one cross rule (low at most high), as the CLI's parse_timing states
    it: the whole timing object through it, its problem by the page's field."""
    paths = ("replay.gap", "replay.gap_low", "replay.gap_high")
    if values.get("replay.gap") == "fixed" or any(p in issues or p not in values for p in paths):
        return None
    from budgetcore.replay.options import parse_timing  # noqa: PLC0415

    problems: list[Problem] = []
    gap = {"dist": values["replay.gap"], "low": values["replay.gap_low"]}
    gap["high"] = values["replay.gap_high"]
    parse_timing({"gap_ms": gap, "duration": {"fixed_s": 0}}, "options.timing", problems)
    return option_issue(problems[0]) if problems else None


def initial_panel() -> ReplayPanel:
    return with_texts(ReplayPanel(), {p: f.default for p, f in REPLAY_FIELDS.items()})


def with_turn_lines(panel: ReplayPanel, text: str) -> ReplayPanel:
    from budgetcore.replay.turns import parse_turn_lines  # noqa: PLC0415

    try:
        turns, problems = parse_turn_lines(text)
        pasted = Source(turns, problems)
    except ScenarioError as exc:
        pasted = Source(error=exc.problems)
    return dataclasses.replace(panel, turns_text=text, pasted=pasted, scrub=0)


def with_log(panel: ReplayPanel, text: str, name: str) -> ReplayPanel:
    """Parse one log file's text; keep its numbers, never the text."""
    return with_logs(panel, ((name, text.encode("utf-8", "surrogatepass")),))


T = TypeVar("T")

#: An import in steps: it yields the bytes read so far after each of the readers'
#: steps, and returns what it read: the sessions, and the files that are not logs.
ImportSteps = Generator[int, None, T]
Imported = tuple[tuple["LoadedLog", ...], tuple[tuple[str, str], ...]]


def _load_all(
    name: str,
    files: tuple[tuple[str, bytes], ...],
    step_bytes: int,
    before: int,
    counted: frozenset[str] = frozenset(),
) -> ImportSteps[list[LoadedLog]]:
    """One session file's sessions: itself, or each session of an agent's SQLite
    database (OpenCode's opencode.db, Goose's sessions.db), as the CLI reads them. The
    standard library's sqlite3 is imported only here, when such a file is picked
    (Pyodide 314 builds it in: nothing to fetch; the boot never imports it). In steps:
    a database is one."""
    from budgetcore.replay.logs.tally import SQLITE_MAGIC  # noqa: PLC0415

    if len(files) != 1 or not files[0][1].startswith(SQLITE_MAGIC):
        loaded = yield from _load(name, files, step_bytes, before, counted)
        return [loaded]
    from budgetcore.replay.logs import (  # noqa: PLC0415
        NoRequests,
        costs_nothing,
        no_requests,
        read_sessions,
        unread_agent,
    )

    try:
        logs = read_sessions([files[0]])
    except ScenarioError as exc:  # NoRequests: a database of no session at all
        free = isinstance(exc, NoRequests) and exc.costs_nothing
        who = unread_agent(exc)
        return [LoadedLog(name, error=exc.problems, costs_nothing=free, agent=who)]
    out = []
    for log in logs:
        shown = log.name or name
        if not log.series:
            error = no_requests(log)
            lines = sum(f.lines for f in log.ledger)
            free = costs_nothing(log)
            out.append(
                LoadedLog(
                    shown, error=error.problems, lines=lines, costs_nothing=free, agent=log.format
                )
            )
            continue
        out.append(_loaded(shown, log))
    return out


def _loaded_again(item: LoadedLog) -> LoadedLog:
    """A session measured again from its log as changed after the import's read."""
    assert item.log is not None
    return _loaded(item.name, item.log)


def _loaded(name: str, log: ParsedLog) -> LoadedLog:
    """A read session's numbers, as the CLI's ``run_session`` measures them: a session
    of totals only (Goose, Droid) is measured without a request counted and has no
    backtest."""
    from budgetcore.replay.logs.session import (  # noqa: PLC0415
        log_model,
        summed_measured,
        totals_measured,
    )

    if log.totals_only:
        return LoadedLog(name, log, (), totals_measured(log), log_model(log))
    from budgetcore.replay.asrun import as_run  # noqa: PLC0415

    backtest = as_run(log)
    return LoadedLog(
        name, log, (), summed_measured(log), log_model(log, window=backtest.window), as_run=backtest
    )


class _Stepped(io.BytesIO):
    """A file's bytes read in steps of about ``step_bytes`` (reader.numbered_batches)."""

    def __init__(self, data: bytes, step_bytes: int) -> None:
        super().__init__(data)
        self.step_bytes = step_bytes


def _load(
    name: str,
    files: tuple[tuple[str, bytes], ...],
    step_bytes: int,
    before: int,
    counted: frozenset[str] = frozenset(),
) -> ImportSteps[LoadedLog]:
    """One session's files read in steps; the progress counts the bytes read of its
    files not ``counted`` already (a companion another session read: Copilot CLI's
    session store, read with each of its events.jsonl)."""
    from budgetcore.replay.logs import session_steps, unread_fields  # noqa: PLC0415 - a log only

    streams = [_Stepped(data, step_bytes) if step_bytes else io.BytesIO(data) for _, data in files]
    steps = session_steps([(n, s) for (n, _), s in zip(files, streams, strict=True)])
    try:
        while True:  # after each of the reader's steps, the bytes read so far
            try:
                next(steps)
            except StopIteration as done:
                log: ParsedLog = done.value
                break
            yield before + sum(
                s.tell() for (n, _), s in zip(files, streams, strict=True) if n not in counted
            )
    except ScenarioError as exc:  # NoRequests: read to its end, its lines counted
        return LoadedLog(name, error=exc.problems, **unread_fields(exc))
    return _loaded(name, log)


def with_logs(panel: ReplayPanel, files: tuple[tuple[str, bytes], ...]) -> ReplayPanel:
    """Several files or a folder (paths as the picker gives them): one session per
    session file (its subagent files with it), each parsed at once into numbers; the
    bytes are not kept (docs/replay.md, "Folders"). :func:`import_steps`, all at once."""
    from budgetcore.replay.logs.reader import finish  # noqa: PLC0415

    return with_imported(panel, finish(import_steps(files)))


def with_imported(panel: ReplayPanel, imported: Imported) -> ReplayPanel:
    """The panel showing an import's sessions, the first that replays chosen (the first
    where none does): the sixteenth walk found a folder's first session by name, an
    index file said as what it is, chosen over the sessions after it, so the page
    opened on an error box instead of a backtest."""
    logs, not_read = imported
    first = next((i for i, x in enumerate(logs) if x.log is not None), 0)
    return dataclasses.replace(panel, logs=logs, log_index=first, log_not_read=not_read, scrub=0)


def import_steps(
    files: tuple[tuple[str, bytes], ...], step_bytes: int = 0, *, picked_folder: bool = False
) -> ImportSteps[Imported]:
    """:func:`with_logs`'s reading in steps (the page's import job, ui.replay.imports):
    the sessions of ``files``, each read by its agent's reader in its steps, the files
    in batches of about ``step_bytes`` (0: as large as the reader takes them).
    ``picked_folder``: the files are a folder's, picked in the folder box."""
    from budgetcore.replay.logs.folder import (  # noqa: PLC0415
        SNIFF_BYTES,
        picked_subagents,
        plan_folder,
        sniffable,
        with_sniffed,
    )

    total = sum(len(data) for _, data in files)
    if total > limit_of("page-log"):
        error = too_large("log", limit_of("page-log")).problems
        return (LoadedLog(files[0][0] if files else "", error=error),), ()
    same = _one_name(files) if not picked_folder else None
    if same is not None:
        return (same,), ()
    by_name = dict(files)
    planned = picked_subagents(by_name)  # planned path -> the name as picked
    names = list(planned)
    folder = plan_folder(names)
    heads = {n: by_name[planned[n]][:SNIFF_BYTES] for n in sniffable(folder)}
    folder = with_sniffed(folder, heads)
    # A file picked of any name is a session (a picked file need not end in .jsonl); a
    # picked folder's files are its sessions only where the folder's plan says so, as
    # the CLI reads a folder: a README, a CSV and a PNG were "4 sessions (4 cannot be
    # replayed)" (the tenth walk).
    sessions = folder.sessions or tuple(
        _session_of(n) for n in names if not n.endswith(".meta.json") and not picked_folder
    )
    # The page reads a database from its bytes: SQLite's files beside it are not read. A
    # write-ahead log with frames past its header may hold the database's newest rows,
    # which its bytes lack: that log is its agent's file not read, so the total is
    # unknown, not short and looking whole (a real opencode.db committed with its -wal,
    # held out in round 10c: 65 of its 70 requests). Its index (-shm) holds no row.
    logged = tuple(
        n
        for n in folder.beside_databases
        if n.endswith("-wal") and len(by_name[planned[n]]) > _WAL_HEADER_BYTES
    )
    why = dict(zip(folder.not_read, folder.why_not_read, strict=True))
    unread = sorted(set(folder.not_read + folder.beside_databases).difference(logged))
    not_read = tuple(
        (planned[n], why.get(n, _BESIDE)) for n in unread if folder.sessions or picked_folder
    )
    from budgetcore.replay.logs.session import billed_once  # noqa: PLC0415

    loaded: list[LoadedLog] = []
    before = 0  # the bytes of the sessions read before this one, each file's once
    counted: set[str] = set()
    for s in sessions:
        picked = tuple((planned[f], by_name[planned[f]]) for f in s.files)
        seen = frozenset(counted)
        loaded += yield from _load_all(planned[s.name], picked, step_bytes, before, seen)
        before += sum(len(data) for n, data in picked if n not in seen)
        counted.update(n for n, _ in picked)
        yield before
    for n in logged:
        unread_log = _log_not_read(planned[n], loaded)
        if unread_log is None:  # no session of its database read: nothing to say short
            not_read = tuple(sorted((*not_read, (planned[n], _BESIDE))))
        else:
            loaded.append(unread_log)
    if any(x.log is None and x.agent == "copilot-cli" for x in loaded):
        # An events.jsonl the session store bills: a file of the store's session, as
        # the CLI's folder read counts it (copilot_store.fold_store_companions).
        from budgetcore.replay.logs.copilot_store import fold_store_companions  # noqa: PLC0415

        # (a store's session its events.jsonl marked with compactions: measured again)
        loaded = fold_store_companions(loaded, _loaded_again)
    return tuple(billed_once(loaded)), not_read


#: Why SQLite's own file beside a database is not read on the page.
_BESIDE = "replay.not-read.sqlite-beside"

#: A write-ahead log's header; its frames follow (sqlite.org/fileformat2.html, "WAL File
#: Format"): a log of its header alone holds no row.
_WAL_HEADER_BYTES = 32


def _log_not_read(name: str, loaded: list[LoadedLog]) -> LoadedLog | None:
    """A database's write-ahead log beside it (``<db>-wal``), which the page does not
    read: the file not read of the agent whose sessions its database held, or None
    where none was read from it."""
    from budgetcore.replay.logs.agents import agent  # noqa: PLC0415

    db = name.removesuffix("-wal")
    key = next((x.log.format for x in loaded if x.log and x.name.startswith(db + "#")), "")
    who = agent(key)
    if who is None:
        return None
    file = db.rsplit("/", 1)[-1]
    problem = Problem.coded("log", "log-wal-not-read", file=file, agent=who.name)
    return LoadedLog(name, error=(problem,), agent=key)


def _one_name(files: tuple[tuple[str, bytes], ...]) -> LoadedLog | None:
    """Files picked one by one of which several share a name, said as a problem: a file
    box gives no folder, and a dialog's search or recent files can hold several files
    named alike (Copilot CLI's events.jsonl, Kimi's wire.jsonl, Cline's ui_messages.json
    and task_metadata.json, in every session), so which session, subagent or sidecar
    each belongs to cannot be told. The tenth walk read three Copilot CLI events.jsonl
    as one session, the two others lost without a word; read apart, Cline's task
    metadata paired with another task's messages and a Kimi subagent's wire was billed
    beside its copy in the main wire. The folder box keeps their places."""
    counts: dict[str, int] = {}
    for name, _ in files:
        counts[name] = counts.get(name, 0) + 1
    same = [name for name, n in counts.items() if n > 1]
    if not same:
        return None
    from budgetcore.errors import Problem  # noqa: PLC0415

    n = str(counts[same[0]])
    problem = Problem.page(
        "problem.log-same-name", (("name", same[0], False), ("n", n, False)), ("log",)
    )
    return LoadedLog(same[0], error=(problem,))


def _session_of(name: str) -> SessionFiles:
    from budgetcore.replay.logs.folder import SessionFiles  # noqa: PLC0415

    return SessionFiles(name, (name,))


def _generator(values: Mapping[str, object]) -> GeneratorSpec:
    from budgetcore.replay.turns import Distribution, GeneratorSpec  # noqa: PLC0415

    dist = str(values["replay.dist"])
    low, high = values["replay.low"], values["replay.high"]
    assert isinstance(low, int)
    assert isinstance(high, int)
    added = Distribution("fixed", (low,)) if dist == "fixed" else Distribution(dist, (low, high))
    rate = values["replay.burst_rate"]
    burst_tokens = values["replay.burst_tokens"]
    assert isinstance(burst_tokens, int)
    burst = None if not rate else Distribution("fixed", (burst_tokens,))
    turns, seed = values["replay.turns"], values["replay.seed"]
    assert isinstance(turns, int)
    assert isinstance(seed, int)
    return GeneratorSpec(
        turns=turns,
        seed=seed,
        added=added,
        burst_rate=rate if isinstance(rate, Decimal) else Decimal(0),
        burst=burst,
    )


def _source_key(panel: ReplayPanel) -> object:
    """What the chosen source's turns are a function of: the generator's values, the
    pasted turns (a value made when the paste changes) or the chosen session."""
    if panel.source == "turns":
        return ("turns", panel.turns_text.strip() != "", panel.pasted)
    if panel.source == "log":
        timed = panel.values.get("replay.timing") is True
        return ("log", panel.chosen, timed, timed and panel.values.get("replay.appends"))
    return ("generate", *(panel.values[p] for p in GENERATOR_PATHS))


def _same(a: object, b: object) -> bool:
    """Equal source keys; the paste and the session by identity (each is a value made
    once when it changes), so 500 turns are never compared."""
    if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
        return False
    return all(
        x is y or (type(x) in (str, int, bool, Decimal) and x == y)
        for x, y in zip(a, b, strict=True)
    )


def run_is_current(panel: ReplayPanel) -> bool:
    """Whether the panel's stored run was made from the turns it now names. The shell
    draws between an event and the replay's step, so a new import or session meets the
    last one's run: its rows are another session's."""
    run = panel.run
    return run is not None and _same(run.source_key, _source_key(panel))


def turns_of(panel: ReplayPanel) -> Source:
    """The chosen source's turns (generator fields must be valid)."""
    if panel.source == "turns":
        if not panel.turns_text.strip() and not panel.pasted.error:  # (refused: emptied)
            return Source(error=(Problem.coded("turns", "replay-no-turns"),))
        return panel.pasted
    if panel.source == "log":
        if panel.log_error:
            return Source(error=panel.log_error)
        if panel.log is None:
            return Source(error=(Problem.coded("log", "replay-no-log"),))
        if panel.log.totals_only:
            return Source(error=(_totals_only(panel.log),))
        try:  # with a clock the turns carry the log's times (docs/spec.md §15)
            timed = panel.values.get("replay.timing") is True
            appends = panel.values.get("replay.appends", "any")
            turns = panel.log.main.turns(timed=timed, appends=str(appends))
        except ScenarioError as exc:
            return Source(error=exc.problems)
        chosen = panel.chosen
        if turns and chosen is not None and chosen.as_run is not None:
            from budgetcore.replay.whatif import log_replay_inputs  # noqa: PLC0415

            # F is the stable prefix, as the CLI replays a log (docs/spec.md §17).
            turns, _ = log_replay_inputs(panel.log, chosen.as_run, turns, None)
        if not turns:
            main = panel.log.main
            problem = Problem.coded(
                "log",
                "log-no-branch-requests",
                series=main.name,
                abandoned=format_int(len(main.abandoned)),
            )
            return Source(error=(problem,))
        return Source(turns, panel.log.skipped)
    from budgetcore.replay.turns import generate  # noqa: PLC0415

    return Source(generate(_generator(panel.values)))


def _totals_only(log: ParsedLog) -> Problem:
    """Why a session of per-session totals (Goose, Droid, Copilot CLI's shutdowns) has
    no turn to replay or tune, as the CLI's ``tune`` says it (``totals_problem``), in
    the page's words: its totals sit in the reader's abandoned column, which the
    branch rule read as "no request on the replayed branch of series session totals"."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415

    key = f"replay.log.totals-why.{log.format}"
    why: Param = ("why", key, True) if key in CATALOGUE else ("why", log.totals_only, False)
    return Problem.page("problem.log-totals-only", (("where", "where.log", True), why), ("log",))


def log_prices(panel: ReplayPanel) -> Prices | None:
    """The prices of the log's model when the switch gives the scenario that model."""
    chosen = panel.chosen
    if panel.source != "log" or not panel.log_model or chosen is None or chosen.model is None:
        return None
    res = chosen.model.resolution
    return None if res is None or res.model is None else res.model.prices


def timing_json(values: Mapping[str, object]) -> dict[str, Any] | None:
    """The ``timing`` and ``retries`` options (docs/replay.md, "Background timing") the
    panel's valid values give, exactly as ``--options`` would hold them; None while
    the timing box is off (the replay is then §12's, row for row)."""
    if values["replay.timing"] is not True:
        return None
    if values["replay.duration"] == "fixed":
        duration: dict[str, object] = {"fixed_s": values["replay.fixed_s"]}
    else:
        duration = {
            "prefill_tokens_per_s": values["replay.prefill_rate"],
            "decode_tokens_per_s": values["replay.decode_rate"],
        }
    if values["replay.round_up_ms"] is not None:
        duration["round_up_ms"] = values["replay.round_up_ms"]
    low = values["replay.gap_low"]
    gap: object = low
    if values["replay.gap"] != "fixed":
        gap = {"dist": values["replay.gap"], "low": low, "high": values["replay.gap_high"]}
    return {
        "timing": {
            "gap_ms": gap,
            "gap_seed": values["replay.gap_seed"],
            "duration": duration,
            "run_from": values["replay.run_from"],
            "appends": values["replay.appends"],
        },
        "retries": {
            "failure_rate": values["replay.format_failure_rate"],
            "failure_seed": values["replay.format_failure_seed"],
            "policy": values["replay.policy"],
            "max_resends": values["replay.max_resends"],
            "breaker_failures": values["replay.breaker_failures"],
            "bill_failed_output": values["replay.bill_failed_output"] is True,
        },
    }


#: The prices of the registry models the pickers chose (main, summary); None: none
#: chosen, or its I and O edited by hand (update.picked_prices).
Picked = tuple["Prices | None", "Prices | None"]
NONE_PICKED: Picked = (None, None)


#: The last options made, with what they were made from (:func:`options_of`).
_LAST_OPTIONS: list[tuple[tuple[object, ...], ReplayOptions]] = []


def options_of(panel: ReplayPanel, picked: Picked = NONE_PICKED) -> ReplayOptions:
    """The replay's options from the panel's values; the main request is billed at the
    log's model's prices while the log's switch gives the scenario that model, else at
    the picked main model's, and a summary model of its own at its picked prices (as
    the CLI bills a log's model, docs/replay.md).

    An input reads them three times (the job's ``due`` before and after its step, and
    ``refreshed``) from the same values: the last ones are kept with what they were made
    from, the values and the parsed timing by identity (each is a value made once, by
    with_texts, when a field changes; the key holds them, so no other takes their id).
    The log is in the key too: its model's prices are the main request's."""
    values, timed, log = panel.values, panel.timed, panel.log
    key = (values, timed, panel.source, log, panel.chosen, panel.log_model, *picked)
    if _LAST_OPTIONS:
        last_key, last = _LAST_OPTIONS[0]
        if all(a is b for a, b in zip(last_key, key, strict=True)):
            return last
    options = _options_of(panel, picked)
    _LAST_OPTIONS[:] = [(key, options)]
    return options


def _options_of(panel: ReplayPanel, picked: Picked) -> ReplayOptions:
    from budgetcore.replay.model import ReplayOptions  # noqa: PLC0415

    v = panel.values
    ratio, rate, seed = (
        v["replay.summary_ratio"],
        v["replay.failure_rate"],
        v["replay.failure_seed"],
    )
    prefix, wrapper = v["replay.stable_prefix"], v["replay.wrapper"]
    assert isinstance(seed, int)
    assert isinstance(prefix, int)
    assert isinstance(wrapper, int)
    timed = panel.timed  # parsed when the values were set (with_texts)
    if timed is None:
        # Every field passed the CLI's parse alone already, and the one cross rule (the
        # gap's order) was checked in with_texts: the problems of values that do not.
        timed, problems = _parsed_timing(v)
        if problems:
            raise ScenarioError(problems)
    options = ReplayOptions(
        summary_wrapper_tokens=wrapper,
        summary_ratio=ratio if isinstance(ratio, Decimal) else None,
        failure_rate=rate if isinstance(rate, Decimal) else None,
        failure_seed=seed,
        cache=v["replay.cache"] is True,
        stable_prefix_tokens=prefix,
        main_prices=log_prices(panel) or picked[0],
        summary_prices=picked[1],
        timing=None if timed is None else timed[0],
        retries=None if timed is None else timed[1],
    )
    if on_backtest(panel):
        from budgetcore.replay.whatif import whatif_options  # noqa: PLC0415

        assert panel.log is not None
        assert panel.chosen is not None
        assert panel.chosen.as_run is not None
        # A log replays on its as-run baseline, as the CLI's (docs/spec.md §17).
        options = whatif_options(panel.log, panel.chosen.as_run, options) or options
    return options


def on_backtest(panel: ReplayPanel) -> bool:
    """Whether the replay runs on a log's as-run baseline, which sets its prompt cache
    and stable prefix (``fields.SET_BY_BACKTEST``) whatever the fields say."""
    chosen = panel.chosen
    return bool(
        panel.source == "log"
        and panel.log is not None
        and chosen is not None
        and chosen.as_run is not None
        and panel.log.main.requests
    )


def _waits(panel: ReplayPanel, page_stale: bool) -> bool:
    """The replay waits while an input it reads is invalid: the main form's, the
    generator's (with that source), or an option's."""
    if page_stale or (panel.source == "generate" and panel.stale):
        return True
    reads = (*OPTION_PATHS, *(TIMING_PATHS if panel.values.get("replay.timing") else ()))
    return any(p in panel.issues for p in reads)


_PAUSED = ReplayRun(None, None, None, paused=True)


def due(
    panel: ReplayPanel, scenario: Scenario, page_stale: bool, picked: Picked = NONE_PICKED
) -> bool:
    """Whether :func:`refreshed` would change the panel (the replay job is pending),
    decided without replaying: the same rules, in the same order."""
    if not panel.open:
        return False
    last = panel.run
    if _waits(panel, page_stale):
        return last is not _PAUSED
    key = _source_key(panel)
    if last is None or last.paused or not _same(last.source_key, key):
        return True
    try:
        options = options_of(panel, picked)
    except ScenarioError:  # pragma: no cover - every field was checked alone
        return last.scenario != scenario or last.options is not None
    return last.scenario != scenario or last.options != options


def refreshed(
    panel: ReplayPanel, scenario: Scenario, page_stale: bool, picked: Picked = NONE_PICKED
) -> ReplayPanel:
    """The panel with the replay of its current inputs (the update step's job): the
    last run again when the scenario, the turns and the options are what it was
    computed from; nothing at all while the panel is closed."""
    if not panel.open:
        return panel
    last = panel.run
    if _waits(panel, page_stale):
        return panel if last is _PAUSED else dataclasses.replace(panel, run=_PAUSED)
    key = _source_key(panel)
    try:
        options = options_of(panel, picked)
    except ScenarioError as exc:  # pragma: no cover - every field was checked alone
        run = ReplayRun(scenario, key, None, error=exc.problems)
        return dataclasses.replace(panel, run=run)
    same_turns = last is not None and not last.paused and _same(last.source_key, key)
    if same_turns and last is not None:
        if last.scenario == scenario and last.options == options:
            return panel
        source = last.source
    else:
        source = turns_of(panel)
    if source.error:
        return dataclasses.replace(panel, run=ReplayRun(scenario, key, options, source))
    from budgetcore.replay.simulate import replay_known  # noqa: PLC0415

    try:
        result, known = replay_known(
            scenario, source.turns, options, None if last is None else last.known
        )
    except ScenarioError as exc:  # e.g. a clock over turns without times
        run = ReplayRun(scenario, key, options, source, error=exc.problems)
    else:
        # One run made with all it holds (a replaced one copies each field again).
        what_if = _what_if(panel, scenario, result)
        run = ReplayRun(scenario, key, options, source, result, what_if=what_if, known=known)
    return dataclasses.replace(panel, run=run)


def _what_if(panel: ReplayPanel, scenario: Scenario, result: Replay | None) -> WhatIf | None:
    """The what-if of a log's replay against its as-run model, exactly as the CLI's
    ``run_session`` makes it (the main series only: the page replays no other)."""
    chosen = panel.chosen
    log = panel.log
    if (
        result is None
        or not result.rows
        or panel.source != "log"
        or log is None
        or chosen is None
        or chosen.as_run is None
        or not log.main.requests
    ):
        return None
    from budgetcore.replay.whatif import what_if  # noqa: PLC0415 - a log's replay only

    return what_if(log, chosen.as_run, scenario, result, exclude=chosen.excluded)


#: The sessions' turn sources and what they were made from (their sources' keys).
Sessions = tuple[object, tuple[Source, ...]]


def session_turns(panels: tuple[ReplayPanel, ...], before: Sessions | None = None) -> Sessions:
    """:func:`turns_of` of each panel (one per session of an import): ``before``'s very
    same values while the sources' keys are equal. The Tune panel keeps the last in its
    state, and its job holds on only while the turns are the same tuples."""
    key = tuple(_source_key(p) for p in panels)
    if before is not None and before[0] == key:
        return before
    return key, tuple(turns_of(p) for p in panels)


def source_waits(panel: ReplayPanel) -> bool:
    """Whether a field the chosen source reads is invalid, so nothing replays yet (the
    replay's own rule, without the main form's staleness)."""
    return _waits(panel, False)
