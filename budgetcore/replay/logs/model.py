"""What an imported log becomes (docs/replay.md, "Imported logs"): numbers only.

A session is one or more files (a Claude Code session file and its subagent files, or
one Codex rollout). It holds series of requests (the main conversation, each subagent
run), the log's own compactions, the times of its entries, and a ledger per file that
accounts for every line. No message text is kept anywhere in these values.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from functools import partial
from itertools import chain, compress, islice, repeat
from operator import attrgetter, gt, is_not, itemgetter, sub
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from budgetcore.errors import Problem, ScenarioError
from budgetcore.registry.prices import Usage

# A reader's record's value for a key its line does not have (one object, in records.py,
# which imports nothing of the package so that compiled.py can build structs from it).
from budgetcore.replay.logs.records import ABSENT

if TYPE_CHECKING:
    from budgetcore.replay.logs.compaction import LogCompaction
    from budgetcore.replay.model import Turn

__all__ = [
    "ABSENT",
    "FOREIGN_LINES",
    "FORMATS",
    "SUMMARY_SERIES",
    "FileLedger",
    "LogRequest",
    "LogSeries",
    "ParsedLog",
    "SummedCalls",
    "folder_lines",
    "new_request",
    "sent_as_fields",
    "summary_series",
]

_D = TypeVar("_D")


def sent_as_fields(cls: type[_D]) -> type[_D]:
    """``cls`` (a frozen dataclass with slots, every field set by its constructor)
    pickled as its constructor's arguments: the values read in one C call, the value
    made again by one constructor call. A dataclass with slots pickles by its own
    ``__getstate__`` and ``__setstate__``, which walk ``dataclasses.fields`` in Python
    for every value. A folder's sessions come back from its worker processes pickled
    (cli.pool): about 36 µs a session there and back, 20 with this (docs/performance.md,
    issue 40's third per-session round)."""
    found = fields(cls)  # type: ignore[arg-type]
    assert len(found) > 1, cls  # attrgetter of one name gives the value, not a tuple
    assert all(f.init for f in found), cls
    values = attrgetter(*(f.name for f in found))

    def reduce(self: _D) -> tuple[type[_D], tuple[Any, ...]]:
        return cls, values(self)

    setattr(cls, "__reduce__", reduce)  # noqa: B010 - a method set on the class
    return cls


#: Every agent's key (budgetcore.replay.logs.agents.AGENTS holds how each is read).
FORMATS: tuple[str, ...] = (
    "claude-code",
    "codex",
    "pi",
    "gemini-cli",
    "qwen-code",
    "kimi-cli",
    "opencode",
    "kilo-cli",
    "amp",
    "droid",
    "goose",
    "copilot-cli",
    "cline",
    "roo-code",
    "kilo-code",
)


class LogRequest(NamedTuple):
    """One request the log billed (its copies folded into one). A NamedTuple, like the
    replay's rows: a long Codex rollout makes 200,000 of them, and a frozen dataclass
    of 15 fields took about 1.5 µs each to build (docs/replay.md, "Speed")."""

    line: int  # 1-based line of its first copy in its file
    context: int  # the request's whole input, as the provider billed it
    output: int  # output tokens (Codex: reasoning included)
    cache_read: int  # part of context read from the provider's prompt cache
    cache_write: int  # part of context written to it (5 min + 1 h)
    model: str | None
    # For event-counting peer rules (docs/replay.md, "Messages and tool results"): the
    # conversation's messages on the branch before this request, and the characters of
    # tool results so far (since the last compaction). None when the log does not let
    # us count them (Codex).
    messages: int | None = None
    tool_result_chars: int | None = None
    input: int = 0  # uncached input (context - cache_read - cache_write as billed)
    cache_write_1h: int = 0  # part of cache_write with a 1-hour lifetime
    reasoning: int = 0  # part of output spent on reasoning (Codex)
    started: int | None = None  # ms since the epoch of its first entry
    finished: int | None = None  # ms since the epoch of the line with its final output
    file: int = 0  # index into ParsedLog.files
    logged_cost: Decimal | None = None  # the log's own costUSD (Claude Code <= 1.0.8)
    # ms since the epoch when it was sent, as the log bounds it: the time of the entry
    # it answers, written before it was sent (Claude Code: its first line's parentUuid).
    # None: the log does not say; its first entry (``started``) is taken. The prompt
    # cache's lifetime runs from a request's start (docs/replay.md, "As run", step 2).
    sent: int | None = None

    @property
    def usage(self) -> Usage:
        """What it used, as billed: the measured usage's unit."""
        return Usage(
            input=self.input,
            cache_write_5m=self.cache_write - self.cache_write_1h,
            cache_write_1h=self.cache_write_1h,
            cache_read=self.cache_read,
            output=self.output,
            reasoning=self.reasoning,
        )


#: A request from its 16 values in field order, in one C call (no keyword parsing): the
#: readers' builder (tests/test_fast_paths.py builds the same request by keywords).
new_request = partial(tuple.__new__, LogRequest)


@sent_as_fields
@dataclass(frozen=True, slots=True)
class LogSeries:
    """One conversation of the session: the main one, or one subagent run.

    ``requests`` are those on its replayed branch (the path to its last entry), in
    order; ``abandoned`` are its requests on other branches (a rewind, an edit): billed,
    so in the measured usage, but not turns. ``times`` are the times (ms since the
    epoch) of every timestamped entry on the replayed branch, in file order.
    ``counts``: where the log lets the runtime's own compaction count be rebuilt, that
    count after each request (one per request; empty where it cannot be: the as-run
    model then takes the request's input plus output). Codex: the response's total
    tokens plus its estimate of the reasoning the history carries (docs/replay.md,
    "Predicted compactions"). ``notified``: indices into ``requests`` of those sent right
    after a background task's notification (Claude Code's ``<task-notification>`` user
    message, docs/replay.md "As run"), in order. ``conversation_times``: the times of its
    conversation lines alone (user and assistant entries; a Codex rollout's response
    items), or None where the reader does not tell them apart.
    """

    name: str  # "main"; "sidechain:<agentId>"; "sidechain-<n>" (an inline run, 1.0.x)
    requests: Sequence[LogRequest]
    compactions: tuple[LogCompaction, ...]
    abandoned: Sequence[LogRequest] = ()
    times: Sequence[int] = ()
    counts: tuple[int, ...] = ()
    notified: tuple[int, ...] = ()
    conversation_times: tuple[int, ...] | None = None
    # docs/replay.md, "As run", step 4: indices into ``requests`` of those sent after a
    # user message (Claude Code: a user block that is not a tool result; Codex: an
    # ``event_msg/user_message``), the first request of a user turn; and (Claude Code)
    # of those whose response carries a thinking block. Other readers leave both empty.
    prompted: tuple[int, ...] = ()
    thinking: tuple[int, ...] = ()
    # docs/replay.md, "As run", step 3: indices into ``requests`` of those sent right
    # after Claude Code cleared old tool results from the messages it sends (its
    # ``system/microcompact_boundary`` line), in order. Other readers leave it empty.
    cleared: tuple[int, ...] = ()
    # docs/replay.md, "As run", step 3: indices into ``requests`` of those sent right
    # after a new Claude Code process resumed the session (its ``SessionStart:resume``
    # hook line, or the ``/exit`` that ended the process before), in order. Other
    # readers leave it empty.
    resumed: tuple[int, ...] = ()

    def growth(self) -> list[int]:
        """Each turn's ``added`` (:meth:`turns`): the growth of the context to the next
        request, across a compaction its preTokens minus this request's context (never
        below 0) or this reply's output when the log records no size, and the last
        request's own output. Column by column in C, then the compactions' few turns:
        the what-if reads it without a turn object per request (docs/performance.md)."""
        reqs = self.requests
        if not reqs:
            return []
        ctx = list(map(_CONTEXT_OF, reqs))
        added = list(map(sub, islice(ctx, 1, None), ctx))
        # Never below 0: the few drops (compactions) found in C, not a test per request.
        for i in compress(range(len(added)), map(gt, repeat(0), added)):
            added[i] = 0
        added.append(reqs[-1].output)
        seen: set[int] = set()
        for comp in self.compactions:
            i = comp.after_turn - 1  # the turn before the gap
            if i in seen or not 0 <= i < len(reqs) - 1:
                continue  # the first of several in one gap; the last turn adds its output
            seen.add(i)
            req = reqs[i]
            added[i] = (
                req.output if comp.pre_tokens is None else max(0, comp.pre_tokens - req.context)
            )
        return added

    def turns(
        self, timed: bool = False, appends: str = "any", *, required: int | None = None
    ) -> tuple[Turn, ...]:
        """One replay turn per request: ``added`` is the growth of the context to the
        next request (across a compaction: its preTokens minus this request's context,
        never below 0, or this reply's output when the log records no size); the last
        turn adds its own output. ``timed``: each turn also carries the log's times
        (docs/spec.md §15) — its request's first entry, the line with its final output,
        and the series' timestamped lines after that and before the next request: every
        one, or with ``appends`` "conversation" (the replay input ``timing.appends``)
        its conversation lines only. ``required``: every turn's F (None: the
        scenario's), given here rather than by ``dataclasses.replace`` per turn
        afterwards (3 µs a turn: docs/performance.md)."""
        from budgetcore.replay.model import Turn  # noqa: PLC0415 - the replay's, loaded to replay

        reqs = self.requests
        if timed:
            missing = next((r for r in reqs if r.started is None or r.finished is None), None)
            if missing is not None:
                raise ScenarioError(
                    [
                        # Not ``line``: the page names a pasted line by it, and this
                        # problem is the log's.
                        Problem.coded("log", "log-no-times", request_line=missing.line)
                    ]
                )
            own = self.times
            if appends == "conversation":
                if self.conversation_times is None:
                    raise ScenarioError(
                        [
                            Problem.coded(
                                "options.timing.appends",
                                "log-no-conversation-lines",
                            )
                        ]
                    )
                own = self.conversation_times
            times = sorted(own)
            # Milliseconds from the branch's first timestamped entry, as a replay's
            # clock counts (docs/spec.md §15).
            # default: a totals-only session (Goose, Droid, Copilot CLI's shutdown metrics)
            # has no request and no time, and no turn to time.
            zero = min([*times[:1], *(r.started for r in reqs if r.started is not None)], default=0)
            times = [t - zero for t in times]
        out = []
        for i, (req, added) in enumerate(zip(reqs, self.growth(), strict=True)):
            if not timed:
                out.append(Turn(added=added, required=required, output=req.output))
                continue
            assert req.started is not None
            assert req.finished is not None
            following = reqs[i + 1].started if i + 1 < len(reqs) else None
            until = None if following is None else following - zero
            low = bisect_right(times, req.finished - zero)
            high = len(times) if until is None else bisect_left(times, until)
            out.append(
                Turn(
                    added=added,
                    required=required,
                    output=req.output,
                    time_ms=req.started - zero,
                    reply_end_ms=req.finished - zero,
                    append_ms=tuple(times[low:high]),
                )
            )
        return tuple(out)


@sent_as_fields
@dataclass(frozen=True, slots=True)
class FileLedger:
    """Where every line of one file went. ``lines`` equals :attr:`accounted`: the
    requests (per series: on the replayed branch, on abandoned branches), the copies
    folded into a request, the entries that are not requests (by type), the blank
    lines and the malformed ones (by number)."""

    name: str  # the file as shown (its path inside the folder, or its name)
    lines: int
    blank: int
    malformed: tuple[int, ...]  # line numbers; the reasons are in ParsedLog.skipped
    requests: tuple[tuple[str, int, int], ...]  # (series, on its branch, abandoned)
    duplicates: tuple[tuple[str, int], ...]  # (kind, lines), see docs/replay.md
    entries: tuple[tuple[str, int], ...]  # entries that are not requests: (type, lines)
    orphans: tuple[int, ...] = ()  # parent not in the file: continued from the line before

    @property
    def request_count(self) -> int:
        return sum(on + off for _, on, off in self.requests)

    @property
    def accounted(self) -> int:
        return (
            self.request_count
            + sum(n for _, n in self.duplicates)
            + sum(n for _, n in self.entries)
            + self.blank
            + len(self.malformed)
        )


def folder_lines(logs: Iterable[ParsedLog | None]) -> int:
    """The lines of a folder's sessions, each file once: a file read with several
    sessions (Kimi's data-folder ``config.toml``, which names the model of every session
    beside it) is in each session's ledger, and in the folder's total once."""
    seen: set[str] = set()
    total = 0
    for log in logs:
        for f in log.ledger if log is not None else ():
            if f.name not in seen:
                seen.add(f.name)
                total += f.lines
    return total


#: The prefix of the series of a compaction's own summary calls where the log bills them
#: among the conversation's messages (OpenCode's ``summary: true`` assistant message),
#: named by it and the series they summarise. They are not requests of that series (the
#: runtime's trigger never counts them, and the compaction comes after the request that
#: fired it), and the as-run model bills them as logged (asrun.is_summary_call).
SUMMARY_SERIES = "summary:"


def summary_series(of: str) -> str:
    """The series of the summary calls of the series ``of`` (:data:`SUMMARY_SERIES`)."""
    return SUMMARY_SERIES + of


#: The malformed lines' codes that cannot be one of this session's bills: a line of
#: another agent's format inside the file (ParsedLog.unread_bills).
FOREIGN_LINES = frozenset({"log-line-codex-in-claude", "log-line-claude-in-codex"})

_MODEL_OF = itemgetter(5)  # LogRequest.model


class SummedCalls(Sequence[LogRequest]):
    """A series' requests as one reader summed them for a usage-only read (``replay
    --log ... --usage``: no backtest, no what-if, no turn), never built one by one:
    ``n`` calls of one ``model``, their counts' sums in :meth:`LogRequest.usage`'s
    order (``parts``: uncached input, 5-minute and 1-hour cache writes, cache reads,
    output with reasoning, reasoning), whether any call used each kind (``used``:
    input, cache write, cache read, output), the largest context (its price tier)
    and their logged costs' sum (``logged``, of ``logged_n`` calls). Its length and
    :attr:`models` are the requests'; the measured usage reads the sums
    (:func:`~budgetcore.replay.logs.usage.measured_usage`). Anything that would read a
    request itself raises: a usage-only read never does, and a partial answer must
    not pass for one (Goose's ledger, docs/performance.md)."""

    __slots__ = ("context", "logged", "logged_n", "model", "n", "parts", "used")

    def __init__(
        self,
        n: int,
        model: str | None,
        parts: tuple[int, int, int, int, int, int],
        used: tuple[bool, bool, bool, bool],
        *,
        context: int,
        logged: Decimal,
        logged_n: int,
    ) -> None:
        self.n, self.model, self.parts, self.used = n, model, parts, used
        self.context, self.logged, self.logged_n = context, logged, logged_n

    @property
    def models(self) -> Iterable[str | None]:
        """Each request's model, in order (:func:`_models_of`): one model."""
        return repeat(self.model, self.n)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: Any) -> Any:
        raise TypeError("a usage-only read's summed calls hold no request one by one")

    def __reduce__(self) -> tuple[Any, ...]:
        # A folder's runs come back from its worker processes pickled.
        return (
            _summed_calls,
            (self.n, self.model, self.parts, self.used, self.context, self.logged, self.logged_n),
        )


def _summed_calls(*args: Any) -> SummedCalls:
    """:class:`SummedCalls` from its values in order (its pickle)."""
    n, model, parts, used, context, logged, logged_n = args
    return SummedCalls(n, model, parts, used, context=context, logged=logged, logged_n=logged_n)


def _models_of(requests: Sequence[LogRequest]) -> Iterable[Any]:
    """Each request's model, in order: a kept session's (replay.logs.packed, whose
    ``models`` are its requests' without reading them back) or each request's."""
    models: Iterable[Any] | None = getattr(requests, "models", None)
    return map(_MODEL_OF, requests) if models is None else models


_CONTEXT_OF = itemgetter(1)  # LogRequest.context
_is_named = partial(is_not, None)


@sent_as_fields
@dataclass(frozen=True, slots=True)
class ParsedLog:
    """One session: its series (the replayed one first), what was skipped, the ledger."""

    format: str  # one of FORMATS
    series: tuple[LogSeries, ...]  # the main series first when it has requests
    skipped: tuple[Problem, ...]  # malformed lines, by file and line number
    duplicates: int  # copies folded into a request, every kind
    window: int | None  # the model's context window when the log states it (Codex)
    ledger: tuple[FileLedger, ...] = ()  # one per file, the session file first
    name: str = ""  # the session as shown (its main file)
    files: tuple[str, ...] = ()  # the files read, as in the ledger
    # (file, line, message id, request id) of each request that has both ids (Claude
    # Code): what names one response across the sessions of one import, where a resumed
    # session's file holds the earlier one's responses again (usage.billed_elsewhere).
    ids: Sequence[tuple[int, int, str, str]] = ()
    # Why this session holds per-model totals and no requests (Goose, Droid), "" when it
    # holds requests: its totals are billed (series "session totals", abandoned: never
    # turns), and it cannot be replayed turn by turn.
    totals_only: str = ""
    # The cloud that served the responses where their message ids name one (Claude
    # Code): "bedrock" (msg_bdrk_…), "vertex" (msg_vrtx_…); "" for Anthropic's own API
    # or when nothing says. The as-run model names it beside its cache rules.
    gateway: str = ""
    # The runtime's version as the log writes it ("2.0.76": Claude Code's on the main
    # series' last request line; Codex's session_meta cli_version); "" when it does
    # not. The as-run trigger reads it where a runtime's rule changed between versions.
    version: str = ""
    # Why the requests' model is an assumption and not read from the log (a Kimi CLI
    # wire names none), "" when every model is the log's own.
    model_assumed: str = ""
    # What the session's file lacks that its agent writes elsewhere, so that the read is
    # less than whole (an OpenCode database of its message table alone: no session
    # titles nor parents, no parts): a catalogue key (``replay.log.lacks.*``), said in
    # the CLI's table, its JSON and the page; "" when nothing is missing.
    lacks: str = ""
    # (line, ms since the epoch or None) of each compaction a file records of a session
    # another source bills (a Copilot CLI events.jsonl whose session the session store
    # bills: ``copilot_store.fold_store_companions`` marks them on that session).
    marks: tuple[tuple[int, int | None], ...] = ()

    @property
    def main(self) -> LogSeries:
        return self.series[0]

    def pick(self, name: str | None) -> LogSeries:
        """The series called ``name`` (None: the main one); raises naming the choices."""
        if name is None:
            return self.main
        for s in self.series:
            if s.name == name:
                return s
        names = tuple(s.name for s in self.series)
        raise ScenarioError([Problem.of("series", name, "one-of", names=names)])

    def models(self) -> tuple[str, ...]:
        """Every model a request names, in the order first seen (series by series, each
        series' branch before its abandoned requests)."""
        named = (
            filter(_is_named, chain(_models_of(s.requests), _models_of(s.abandoned)))
            for s in self.series
        )
        return tuple(dict.fromkeys(chain.from_iterable(named)))  # in C: 200,000 requests

    def main_model(self) -> str | None:
        """The model of most requests on the main series' branch (ties: the first seen
        there); None when no request names one."""
        named: list[str] = list(filter(_is_named, _models_of(self.main.requests)))
        if named and named.count(named[0]) == len(named):
            return named[0]  # one model: no count per model (in C, 200,000 requests)
        counts: Counter[str] = Counter(named)
        if not counts:
            return None
        top = max(counts.values())
        return next(m for m, n in counts.items() if n == top)  # a Counter keeps first-seen order

    @property
    def unread_bills(self) -> int:
        """The malformed lines that may have carried a bill (docs/replay.md, "Malformed
        lines and the measured cost"): every one but a line of another agent's format.
        A line is malformed at its first fault, so what it was is known only as far as
        it was read: a torn line, a byte that is not UTF-8 or a count of the wrong type
        may be a response's. The measured cost counts none of them, and says so."""
        return sum(1 for p in self.skipped if p.code not in FOREIGN_LINES)

    def all_requests(self) -> tuple[LogRequest, ...]:
        """Every request the session billed, each once: every series, abandoned
        branches included."""
        out: list[LogRequest] = []
        for s in self.series:
            out.extend(s.requests)
            out.extend(s.abandoned)
        return tuple(out)
