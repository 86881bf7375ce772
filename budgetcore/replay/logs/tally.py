"""The ledger and the series of one session, for the readers of the agents whose logs
are small (pi, Gemini CLI, Qwen Code, Kimi CLI, OpenCode, ...): each reader says what
each line or record is, this puts the requests on their series and branches and
accounts for every line (SPEC §12, docs/replay.md "Other agents").

Claude Code and Codex keep their own fast readers (:mod:`.claude`, :mod:`.codex`):
their logs run to hundreds of thousands of lines; these agents' do not, so one plain
path serves them all.
"""

from __future__ import annotations

import functools
import io
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from budgetcore.errors import NonFinite, Problem
from budgetcore.inputs.numbers import read_number
from budgetcore.replay.logs.model import (
    FileLedger,
    LogRequest,
    LogSeries,
    ParsedLog,
    new_request,
)
from budgetcore.replay.logs.reader import (
    BATCH_LINES,
    BLANK,
    MAX_LOG_REQUESTS,
    LineSource,
    Malformed,
    Replayed,
    at_line,
    compiled_from,
    decode_line,
    millis_of,
    numbered_batches,
    numbered_lines,
    record_batches,
    skeleton_batches,
    too_many_requests,
)
from budgetcore.replay.logs.records import Shape, counts, record_of

__all__ = [
    "BATCH_END",
    "BILLED_ONLY",
    "NOT_A_DOCUMENT",
    "SQLITE_MAGIC",
    "SUMMED",
    "TOTALS",
    "Database",
    "Document",
    "Row",
    "Tally",
    "compiled_decode",
    "counts",
    "database_bytes",
    "lines_of",
    "registry_name",
]

#: What :meth:`Tally.document` gives for a file that is not one JSON document (its
#: problem is in the ledger already). Not None: ``null`` is a document.
NOT_A_DOCUMENT = object()

#: What :meth:`Tally.lines` gives, as line 0, at a batch's end when asked for steps:
#: not a line (no line is numbered 0), only the reader's chance to yield.
BATCH_END: dict[str, object] = {}

#: The series of a session that keeps per-model totals only (ParsedLog.totals_only).
TOTALS = "session totals"

#: The series of the messages that sum several requests' usage in a session that keeps
#: its requests too (Cline's ``deleted_api_reqs``, ``subagent_usage``): billed as
#: :data:`TOTALS` are, never a turn nor a request, and the session is still replayed.
SUMMED = "summed usage"

#: The series whose entries are billed but are no request (:meth:`Tally.total`,
#: :meth:`Tally.summed`).
BILLED_ONLY = (TOTALS, SUMMED)

#: A request for :meth:`Tally.requests_of`: (line, input uncached, cache reads, output
#: with reasoning in it, reasoning, model, time, tree entry, file, cache writes, the
#: cost the agent logged or None).
Row = tuple[int, int, int, int, int, str | None, int | None, str | None, int, int, Decimal | None]

_MAX_LABEL = 48


def label(text: str) -> str:
    """A ledger kind, cut to a length a table shows."""
    return text if len(text) <= _MAX_LABEL else text[: _MAX_LABEL - 1] + "…"


@dataclass(slots=True)
class _File:
    """One file's ledger as a reader counts it: its lines, blank and malformed ones, and
    the other entries and duplicates by kind."""

    name: str
    lines: int = 0
    blank: int = 0
    malformed: list[int] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    dups: dict[str, int] = field(default_factory=dict)


#: A request and its place: (the request, its series, the tree entry it belongs to (pi,
#: Qwen; None: on every branch), off: never on a branch (a session's totals: billed,
#: not a turn)). A plain tuple: one per request, and a class's instance cost three
#: times as much to make.
_Req = tuple[LogRequest, str, str | None, bool]


#: A compaction as read, before :meth:`Tally.session` places it among its series'
#: requests: its line, file, series, tree node, trigger, context before it, time, and
#: the series' requests read before it. A plain tuple: a class cost 0.3 ms of every
#: log read's start-up to build, and most logs record no compaction.
_Comp = tuple[int, int, str, str | None, str | None, int | None, int | None, int]


class Tally:
    """What a reader found, file by file; :meth:`session` makes the ParsedLog."""

    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.files: list[_File] = []
        self.problems: list[Problem] = []
        self.requests: list[_Req] = []
        self.compactions: list[_Comp] = []
        self.times: dict[str, list[tuple[str | None, int]]] = {}
        # A series' times on no node, where its reader has none (plain_stamps).
        self.plain: dict[str, list[int]] = {}
        self.parents: dict[str, str | None] = {}  # tree entries: id -> parent id
        self.last_node: dict[str, str] = {}  # series -> its last tree entry (the leaf)
        self.window: int | None = None
        self.order: list[str] = []  # series in the order first seen
        self.ids: list[tuple[int, int, str, str]] = []
        self.totals_only = ""  # why the session keeps totals only (ParsedLog.totals_only)
        self.model_assumed = ""  # why its model is assumed (ParsedLog.model_assumed)
        self.lacks = ""  # what its file lacks that its agent writes (ParsedLog.lacks)
        self.marks: list[tuple[int, int | None]] = []  # ParsedLog.marks
        self.billed_session = ""  # ParsedLog.billed_session
        self.per_series: dict[str, int] = {}  # requests read so far, per series

    # ---------------------------------------------------------------- per file

    def open(self, name: str) -> int:
        self.files.append(_File(name))
        return len(self.files) - 1

    @property
    def file(self) -> int:
        return len(self.files) - 1

    def lines(
        self, stream: LineSource, what: str = "log", skeleton: str = "", *, steps: bool = False
    ) -> Iterator[tuple[int, dict[str, object]]]:
        """Every line of the current file that is a JSON object; blank and malformed
        lines are counted here and not given. ``skeleton``: the keys the reader looks
        at (``compiled.SKELETONS``), for the compiled decoder where it is offered: a
        line then holds only those of its keys (the texts beside them never built).
        ``steps``: a batch's end is given too, as line 0 (no line has that number), for
        a reader in steps to yield there (reader.Steps)."""
        if skeleton:
            return self.skeleton_rows(numbered_batches(stream, what), skeleton, steps)
        return self._plain_lines(stream, what, steps)

    def _object(self, f: _File, number: int, raw: bytes) -> dict[str, object] | None:
        """A line decoded in full: its object, or None for a blank line (counted in
        ``f``) or a malformed one (listed by number): the one rule of every loop below."""
        value = decode_line(raw)
        if value is BLANK:
            f.blank += 1
            return None
        if isinstance(value, Malformed):
            self.malformed(number, value.problem)
            return None
        assert isinstance(value, dict)
        return value

    def _plain_lines(
        self, stream: LineSource, what: str, steps: bool = False
    ) -> Iterator[tuple[int, dict[str, object]]]:
        f = self.files[-1]
        for number, raw in numbered_lines(stream, what):
            if steps and number % BATCH_LINES == 0:
                yield 0, BATCH_END
            f.lines = number
            value = self._object(f, number, raw)
            if value is not None:
                yield number, value

    def skeleton_rows(
        self, read: Iterable[tuple[int, list[bytes]]], skeleton: str, steps: bool = False
    ) -> Iterator[tuple[int, dict[str, object]]]:
        """:meth:`lines` of the batches ``read`` (``numbered_batches``'s), a batch at a
        time: each line through the skeleton decoder once it is worth its import
        (``compiled_from``), and in full where it gives none (no msgspec, the page, a
        line the skeleton does not fit). A reader that read batches ahead for a cheaper
        decode gives them here again when it could not use it (copilot_store)."""
        f = self.files[-1]
        batches: Any = None  # None: not yet asked; False: read in full
        for first, batch in read:
            if steps and first > 1:
                yield 0, BATCH_END
            if batches is None and compiled_from(first, sum(map(len, batch))):
                batches = skeleton_batches(skeleton) or False
            values = batches(batch) if batches else None
            if values is not None and None not in values:  # every line a skeleton
                f.lines = first + len(batch) - 1
                yield from zip(range(first, first + len(batch)), values, strict=True)
                continue
            number = first - 1
            f.lines = first + len(batch) - 1
            for i, raw in enumerate(batch):
                number += 1
                value: Any = values[i] if values is not None else None
                if value is None:
                    value = self._object(f, number, raw)
                    if value is None:
                        continue
                yield number, value

    def record_lines(
        self, stream: LineSource, what: str, shape: Shape, *, steps: bool = False
    ) -> Iterator[tuple[int, Any]]:
        """:meth:`record_batches` a line at a time. A batch's end, for ``steps``, is
        line 0 with no record (the reader's chance to yield: reader.Steps)."""
        for i, (numbers, records) in enumerate(self.record_batches(stream, what, shape)):
            if steps and i:
                yield 0, None
            yield from zip(numbers, records, strict=True)

    def timed_records(
        self, stream: LineSource, what: str, shape: Shape
    ) -> Iterator[tuple[Sequence[int], list[Any], list[int | None]]]:
        """:meth:`record_batches` with each record's time: its ``timestamp`` read by
        :func:`~.reader.millis`, a batch at once (``millis_of``)."""
        for numbers, records in self.record_batches(stream, what, shape):
            yield numbers, records, millis_of([r.timestamp for r in records])

    def record_batches(
        self, stream: LineSource, what: str, shape: Shape
    ) -> Iterator[tuple[Sequence[int], list[Any]]]:
        """The current file's lines a batch at a time as records of ``shape``
        (:mod:`.records`), read by attribute: (their line numbers, the records), blank
        and malformed lines counted here and left out. Each line is decoded straight
        into the shape's struct where the compiled decoder is offered and worth its
        import (``compiled_from``), else (the page, a line the struct does not fit)
        decoded in full and made the same record."""
        f = self.files[-1]
        batches: Any = None  # None: not yet asked; False: read with the standard library
        for first, batch in numbered_batches(stream, what):
            if batches is None and compiled_from(first, sum(map(len, batch))):
                batches = record_batches(shape) or False
            values = batches(batch) if batches else None
            f.lines = first + len(batch) - 1
            if values is not None and None not in values:  # every line a struct
                yield range(first, first + len(batch)), values
                continue
            numbers: list[int] = []
            records: list[Any] = []
            for number, raw in enumerate(batch, first):
                value: Any = values[number - first] if values is not None else None
                if value is None:
                    obj = self._object(f, number, raw)
                    if obj is None:
                        continue
                    value = record_of(obj, shape)
                numbers.append(number)
                records.append(value)
            yield numbers, records

    def stamps(self, series: str) -> list[tuple[str | None, int]]:
        """The series' times, to append (node, time) to (:meth:`time`, for a loop that
        takes it once)."""
        self._series(series)
        return self.times[series]

    def plain_stamps(self, series: str) -> list[int]:
        """The series' times, to append a time to, where no entry of it is on a node (a
        reader of no branches, such as Copilot CLI's export): the times alone, not a
        (None, time) pair each (64 bytes a request). A series takes its times one way
        or the other (:meth:`stamps`), never both."""
        self._series(series)
        return self.plain.setdefault(series, [])

    def record(self) -> None:
        """One more record of the current file (a document's record, a table row)."""
        self.files[-1].lines += 1

    def records(self, n: int, kind: str) -> None:
        """``n`` more records of the current file, each an entry of ``kind`` (rows read
        by count, such as a Goose session's messages)."""
        if n > 0:
            self.files[-1].lines += n
            k = label(kind)
            kinds = self.files[-1].kinds
            kinds[k] = kinds.get(k, 0) + n

    def document(self, stream: Any, what: str = "log") -> Any:
        """The current file's one JSON document, counted as its one record; a file that
        is not one is counted as malformed and gives :data:`NOT_A_DOCUMENT`."""
        doc = document_of(stream, what)
        self.record()
        if isinstance(doc, Problem):
            self.malformed(1, doc)
            return NOT_A_DOCUMENT
        return doc

    def malformed(self, line: int, problem: Problem) -> None:
        f = self.files[-1]
        f.malformed.append(line)
        self.problems.append(at_line(f.name if self.file else "", line, problem))

    def entry(self, kind: str) -> None:
        """A line that is not a request, by its kind."""
        k = kind if len(kind) <= _MAX_LABEL else label(kind)  # label's rule, its call saved
        kinds = self.files[-1].kinds
        kinds[k] = kinds.get(k, 0) + 1

    def entries(self, kinds: Iterable[str]) -> None:
        """Lines that are not requests, by their kinds (:meth:`entry` of each, counted
        in C: a batch's at once)."""
        self.entries_of(Counter(kinds).items())

    def entries_of(self, counted: Iterable[tuple[str, int]]) -> None:
        """Lines that are not requests: (kind, how many) each, in the order first seen
        (:meth:`entries`, for a reader that counted them itself)."""
        mine = self.files[-1].kinds
        for kind, n in counted:
            k = label(kind)
            mine[k] = mine.get(k, 0) + n

    def duplicate(self, kind: str) -> None:
        """A line that repeats a request counted already (folded into it)."""
        dups = self.files[-1].dups
        dups[kind] = dups.get(kind, 0) + 1

    # ---------------------------------------------------------------- what lines say

    def _series(self, name: str) -> None:
        if name not in self.times:
            self.times[name] = []
            self.order.append(name)

    def node(self, series: str, node: str, parent: str | None) -> None:
        """A tree entry (``id`` / ``parentId``): the branch replayed is the path to the
        series' last one."""
        self.parents.setdefault(node, parent)
        self.last_node[series] = node

    def time(self, series: str, at: int | None, node: str | None = None) -> None:
        if at is not None:
            times = self.times.get(series)
            if times is None:
                self._series(series)
                times = self.times[series]
            times.append((node, at))

    def request(
        self,
        line: int,
        *,
        series: str = "main",
        input: int,
        cache_read: int = 0,
        cache_write: int = 0,
        output: int = 0,
        reasoning: int = 0,
        model: str | None,
        time: int | None = None,
        logged_cost: Decimal | None = None,
        node: str | None = None,
        file: int | None = None,
    ) -> LogRequest:
        """One request, in our units: ``input`` uncached, ``output`` with reasoning in
        it (``reasoning`` is the part of it spent thinking)."""
        if len(self.requests) >= MAX_LOG_REQUESTS:
            raise too_many_requests(MAX_LOG_REQUESTS)
        if series not in self.times:
            self._series(series)
        req: LogRequest = new_request(
            (
                line,
                input + cache_read + cache_write,
                output,
                cache_read,
                cache_write,
                model,
                None,  # messages, tool_result_chars: not counted for these logs
                None,
                input,
                0,  # cache_write_1h: no agent here says
                min(reasoning, output),
                time,
                time,
                len(self.files) - 1 if file is None else file,  # self.file, its call saved
                logged_cost,
                None,  # sent: these logs do not say
            )
        )
        self.requests.append((req, series, node, False))
        self.per_series[series] = self.per_series.get(series, 0) + 1
        return req

    def requests_of(self, series: str, rows: Sequence[Row]) -> None:
        """Requests of one series at once, each as :meth:`request` gives it, from its
        :data:`Row`. A reader gathers a batch's
        (or a session's) and hands them over in one call: a keyword call per request
        cost about a microsecond."""
        if not rows:
            return
        if len(self.requests) + len(rows) > MAX_LOG_REQUESTS:
            raise too_many_requests(MAX_LOG_REQUESTS)
        self._series(series)
        self.requests += [
            (
                new_request(
                    (
                        line,
                        fresh + cached + write,
                        output,
                        cached,
                        write,
                        model,
                        None,  # messages, tool_result_chars: not counted for these logs
                        None,
                        fresh,
                        0,
                        reasoning if reasoning < output else output,
                        time,
                        time,
                        file,
                        cost,
                        None,
                    )
                ),
                series,
                node,
                False,
            )
            for line, fresh, cached, output, reasoning, model, time, node, file, write, cost in rows
        ]
        self.per_series[series] = self.per_series.get(series, 0) + len(rows)

    def total(self, line: int, *, why: str, **usage: Any) -> None:
        """A session's per-model totals, where the agent keeps no request of its own
        (``why``): :meth:`billed_only` in :data:`TOTALS`, and the session is totals-only."""
        self.totals_only = why
        self.billed_only(line, series=TOTALS, **usage)

    def billed_only(
        self,
        line: int,
        *,
        series: str,
        input: int,
        cache_read: int = 0,
        cache_write: int = 0,
        output: int = 0,
        reasoning: int = 0,
        model: str | None,
        time: int | None = None,
        logged_cost: Decimal | None = None,
    ) -> None:
        """Usage that is billed but is no request, in a series of :data:`BILLED_ONLY`:
        a totals-only agent's totals (:meth:`total`), or a message summing several
        requests' usage in a session whose requests are read too (:data:`SUMMED`, which
        leaves it replayed). Never on a branch, so never a turn; ``logged_cost`` the
        agent's own cost of it, where it writes one."""
        self.request(
            line,
            series=series,
            input=input,
            cache_read=cache_read,
            cache_write=cache_write,
            output=output,
            reasoning=reasoning,
            model=model,
            time=time,
            logged_cost=logged_cost,
        )
        req, _series, node, _off = self.requests[-1]
        self.requests[-1] = (req, series, node, True)

    def compaction(
        self,
        line: int,
        *,
        series: str = "main",
        pre_tokens: int | None = None,
        trigger: str | None = None,
        time: int | None = None,
        node: str | None = None,
    ) -> None:
        self._series(series)
        at = self.per_series.get(series, 0)
        self.compactions.append((line, self.file, series, node, trigger, pre_tokens, time, at))

    def compaction_trigger(self, index: int, trigger: str | None) -> None:
        """The trigger of the ``index``-th compaction read, where a reader learns it later
        (OpenCode: from its summary's parent message's parts)."""
        line, file, series, node, _before, pre_tokens, time, at = self.compactions[index]
        self.compactions[index] = (line, file, series, node, trigger, pre_tokens, time, at)

    def compaction_after(self, index: int, at: int) -> None:
        """The place of the ``index``-th compaction read (the number of its series'
        requests before it), where a reader bills its requests only at the end (Gemini
        CLI: a record's last copy holds its tokens)."""
        line, file, series, node, trigger, pre_tokens, time, _at = self.compactions[index]
        self.compactions[index] = (line, file, series, node, trigger, pre_tokens, time, at)

    # ---------------------------------------------------------------- the session

    def _branch(self, series: str) -> set[str] | None:
        """The tree entries on the path to the series' last entry; None: no tree."""
        leaf = self.last_node.get(series)
        if leaf is None:
            return None
        parents = self.parents
        if parents and leaf == next(reversed(parents)):
            # A conversation that never branched (each entry the child of the one
            # before it, the leaf the last): the walk would visit every entry, and the
            # first one's parent. Told by comparing two lists in C, not by the walk.
            keys = list(parents)
            if list(parents.values())[1:] == keys[:-1]:
                path = set(keys)
                root = parents[keys[0]]
                if root is not None:
                    path.add(root)
                return path
        return _walk(parents, leaf)

    def session(self, name: str) -> ParsedLog:
        series_out: list[LogSeries] = []
        per_file: dict[int, dict[str, list[int]]] = {}
        by_series: dict[str, list[_Req]] = {}
        if len(self.order) == 1:  # one series (a request names a series it opens)
            by_series[self.order[0]] = self.requests
        else:
            for r in self.requests:  # one pass: a log may hold many series
                mine = by_series.get(r[1])
                if mine is None:
                    mine = by_series[r[1]] = []
                mine.append(r)
        comps_of: dict[str, list[_Comp]] = {}
        for c in self.compactions:
            comps_of.setdefault(c[2], []).append(c)
        for s in self.order:
            mine = by_series.get(s, [])
            branch = self._branch(s)
            if branch is not None and not any(
                not off and (n is None or n in branch) for _r, _s, n, off in mine
            ):
                # The leaf starts a branch with no request yet (pi's branch_summary
                # when the user went back, a Gemini CLI rewind, held out in round 10b:
                # "no request on the replayed branch", exit 2): the branch that leads
                # to the last request is replayed, as Claude Code's (claude._branch).
                answered = next(
                    (n for _r, _s, n, off in reversed(mine) if n is not None and not off), None
                )
                if answered is not None:
                    branch = _walk(self.parents, answered)

            def on(node: str | None, branch: set[str] | None = branch) -> bool:
                return branch is None or node is None or node in branch

            # Each request's place once: on the branch (kept) or not (dropped).
            if branch is None:
                flags = [not off for _r, _s, _n, off in mine]
            else:
                flags = [not off and (n is None or n in branch) for _r, _s, n, off in mine]
            kept = [r[0] for r, k in zip(mine, flags, strict=True) if k]
            dropped = [r[0] for r, k in zip(mine, flags, strict=True) if not k]
            if s in BILLED_ONLY:
                seen_lines: set[tuple[int, int]] = set()
                for (req, _s, _n, off), k in zip(mine, flags, strict=True):
                    if off:
                        # One line may hold several models' totals: the line is one place.
                        if (req.file, req.line) in seen_lines:
                            continue
                        seen_lines.add((req.file, req.line))
                    counts_ = per_file.setdefault(req.file, {}).setdefault(s, [0, 0])
                    counts_[0 if k else 1] += 1
            elif len(self.files) == 1:
                # One file (most sessions): every request is its, counted by the lists
                # above, where the pass below cost about 0.1 µs a request.
                if mine:
                    per_file.setdefault(0, {})[s] = [len(kept), len(dropped)]
            else:
                # Counted in C: (file, kept) -> requests.
                places = Counter(zip([r[0].file for r in mine], flags, strict=True))
                for (file, k), n in places.items():
                    per_file.setdefault(file, {}).setdefault(s, [0, 0])[0 if k else 1] += n
            comps = []
            for line, file, _series, node, trigger, pre, time, at in comps_of.get(s, ()):
                if not on(node):
                    continue
                from budgetcore.replay.logs.compaction import LogCompaction  # noqa: PLC0415

                # Its place among the branch's requests: those read before it on the branch.
                after = sum(1 for r in mine[:at] if on(r[2]))
                post = kept[after].context if after < len(kept) else None
                comps.append(LogCompaction(line, after, trigger, pre, post, file, time))
            stamps = self.times.get(s, ())
            plain = self.plain.get(s)
            times = (
                tuple(plain)
                if plain is not None
                else tuple([t for _n, t in stamps])
                if branch is None
                else tuple([t for n, t in stamps if n is None or n in branch])
            )
            if kept or dropped:
                series_out.append(LogSeries(s, tuple(kept), tuple(comps), tuple(dropped), times))
        ledgers = []
        for i, f in enumerate(self.files):
            reqs = tuple((s, n[0], n[1]) for s, n in per_file.get(i, {}).items())
            ledgers.append(
                FileLedger(
                    name=f.name,
                    lines=f.lines,
                    blank=f.blank,
                    malformed=tuple(f.malformed),
                    requests=reqs,
                    duplicates=tuple(sorted(f.dups.items())),
                    entries=tuple(sorted(f.kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
                )
            )
        # The main series first when it has requests (ParsedLog.main).
        series_out.sort(key=lambda s: s.name != "main")
        return ParsedLog(
            self.format,
            tuple(series_out),
            tuple(self.problems),
            sum(sum(f.dups.values()) for f in self.files),
            self.window,
            tuple(ledgers),
            name,
            tuple(f.name for f in self.files),
            tuple(self.ids),
            self.totals_only,
            model_assumed=self.model_assumed,
            lacks=self.lacks,
            marks=tuple(self.marks),
            billed_session=self.billed_session,
        )


def _walk(parents: dict[str, str | None], leaf: str) -> set[str]:
    """The entries on the path from ``leaf`` to its root, by ``parents`` (a loop stops
    where it closes)."""
    path: set[str] = set()
    node: str | None = leaf
    while node is not None and node not in path:
        path.add(node)
        node = parents.get(node)
    return path


#: The most bytes one read of a whole file takes (:func:`lines_of`).
_WHOLE_PIECE = 1 << 22


def lines_of(stream: LineSource, limit: int, what: str = "log") -> bytes:
    """A whole file (a JSON document, a database) from its stream, at most ``limit``
    bytes (the size error past it). Read in pieces with the stream's ``read`` where it
    has one: ``readline`` took 1.2 ms for a 2.3 MB document on one line and 3.9 ms for
    one of 30,000 short lines, ``read`` 0.15 ms (an Amp thread is one such document;
    docs/performance.md). The lines a detection read first (:class:`Replayed`) come first."""
    from budgetcore.inputs.text import too_large  # noqa: PLC0415

    parts: list[bytes] = []
    source: Any = stream
    if isinstance(stream, Replayed):
        parts, stream.head = stream.head, []
        source = stream.rest
    take = getattr(source, "read", None) or source.readline
    seen = sum(map(len, parts))
    while True:
        if seen > limit:
            raise too_large(what, limit)
        raw = take(_WHOLE_PIECE)
        if not raw:
            break
        seen += len(raw)
        parts.append(raw)
    return b"".join(parts)


class Document(io.BytesIO):
    """A file that is one JSON document (a Gemini CLI ``.json`` session, an OpenCode
    message, ...): its bytes, and ``value``, the document (or the Problem saying why it
    is not one)."""

    def __init__(self, data: bytes, value: Any) -> None:
        super().__init__(data)
        self.value = value

    @classmethod
    def parse(cls, data: bytes) -> Document:
        compiled = _compiled_document(data)
        if compiled is not None:
            return cls(data, compiled[0])
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return cls(
                data,
                Problem.coded(
                    "",
                    "log-document-not-utf8",
                    byte=exc.start + 1,
                ),
            )
        try:
            value = json.loads(text, parse_float=read_number, parse_constant=NonFinite)
        except (ValueError, RecursionError):
            value = Problem.coded("", "log-document-not-json")
        return cls(data, value)


def _compiled_document(data: bytes) -> list[Any] | None:
    """The document decoded by msgspec, where it is offered and worth its import
    (``compiled_from``), as ``[value]``; None: read with the standard library (no
    msgspec, the page, a document it refuses, or one that is ``null``). An Amp thread of
    2.3 MB: 10.7 ms through ``json.loads``, 2.7 ms here (docs/performance.md)."""
    return compiled_decode(data, "document_decoder", len(data))


def compiled_decode(data: bytes, decoder: str, counted: int = 0) -> list[Any] | None:
    """``data`` decoded by ``compiled``'s ``decoder`` (the name of its function that
    gives the decoder), as ``[value]``, where msgspec is offered and worth its import
    (``compiled_from``, ``counted`` bytes more read); None: it is not, or msgspec
    refused ``data``."""
    if not compiled_from(1, counted):
        return None
    try:
        from budgetcore.replay.logs import compiled  # noqa: PLC0415 (msgspec, on demand)
    except ImportError:
        return None
    decode = getattr(compiled, decoder)()
    if decode is None or not compiled.stack_room():
        return None
    # A byte-order mark, which the standard library's "utf-8-sig" drops, msgspec refuses.
    found = compiled.decode_batch(decode, [data.removeprefix(b"\xef\xbb\xbf")])
    return None if found is None or found[0] is None else found


def document_of(stream: Any, what: str = "log") -> Any:
    """The document a stream holds: given already (a :class:`Document`), else read."""
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    if isinstance(stream, Document):
        return stream.value
    return Document.parse(lines_of(stream, limit_of(what), what)).value


#: The first bytes of every SQLite database file (sqlite.org/fileformat.html).
SQLITE_MAGIC = b"SQLite format 3\x00"


class Database:
    """An SQLite database an agent wrote (OpenCode's ``opencode.db``, Goose's
    ``sessions.db``), open: its connection (None: not a database SQLite can open) and
    the names of its tables. Opened once, from its bytes (:meth:`of_bytes`, a copy in
    SQLite's memory, the bytes then let go) or by the shell from its file, read-only
    (``budgetcore.cli.replay_cmds``): never held twice."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.tables = _tables(db)

    @classmethod
    def of_bytes(cls, data: bytes | bytearray) -> Database:
        sqlite3 = sqlite()
        try:
            db = open_database(data)
        except sqlite3.Error:
            db = None
        return cls(db)

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


def sqlite() -> Any:
    """The standard library's sqlite3, loaded when a database is read (the page's
    Pyodide has it only once loaded): a clear error where it is missing."""
    try:
        import sqlite3  # noqa: PLC0415 - a database only
    except ImportError:
        from budgetcore.errors import ScenarioError  # noqa: PLC0415

        raise ScenarioError(
            [
                Problem.coded(
                    "log",
                    "log-no-sqlite",
                )
            ]
        ) from None
    return sqlite3


#: Bytes 18 and 19 of a database file: its write and read format versions, 1 for a
#: rollback journal and 2 for write-ahead logging (sqlite.org/fileformat2.html, "File
#: format version numbers").
_FORMAT_VERSIONS = slice(18, 20)


def in_wal_mode(head: bytes | bytearray) -> bool:
    """Whether a database's first bytes (at least 20) mark it as kept in WAL mode."""
    return b"\x02" in head[_FORMAT_VERSIONS] and head.startswith(SQLITE_MAGIC)


def open_database(data: bytes | bytearray) -> Any:
    """An in-memory copy of a database from its bytes (the file is never written).

    A database in WAL mode (OpenCode's ``opencode.db`` is one: a real file's bytes 18
    and 19 are 2) cannot be opened in memory ("unable to open database file": SQLite
    keeps a WAL index beside a file, and memory has none), so every real OpenCode
    database given as bytes (the page, standard input) was refused as damaged. Its
    pages are those of any database; marked as a rollback-journal one, the copy reads
    as the file does (a bytearray is marked in place: no second copy of a large
    database). What a ``-wal`` file beside it holds, not yet checkpointed, is in no
    bytes given here."""
    if in_wal_mode(data):
        if not isinstance(data, bytearray):
            data = bytearray(data)
        data[_FORMAT_VERSIONS] = b"\x01\x01"
    db = sqlite().connect(":memory:")
    db.deserialize(data)
    return db


def _tables(db: Any) -> frozenset[str]:
    if db is None:
        return frozenset()
    try:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except (sqlite().Error, UnicodeDecodeError):
        # A damaged schema's text that is not UTF-8 raises the latter, not an SQLite
        # error (an internal error before: the bad-input walk of issue 40): no table
        # can be read, so the database is refused as damaged.
        return frozenset()
    return frozenset(str(r[0]) for r in rows)


def database_bytes(stream: LineSource, limit: int, what: str = "log") -> bytearray:
    """A database file's bytes from its stream, at most ``limit`` (the size error past
    it), gathered in one buffer: no list of pieces joined into a second copy."""
    from budgetcore.inputs.text import too_large  # noqa: PLC0415

    data = bytearray()
    while True:
        raw = stream.readline(1 << 20)
        if not raw:
            return data
        if len(data) + len(raw) > limit:
            raise too_large(what, limit)
        data += raw


#: A bare model name's maker, by its family: the maker's own API's registry prefix.
#: ccusage prices a name its table lacks by a loose match (``pricing.rs``
#: ``find_entry``: any key the name is part of), which lands on these entries for the
#: names agents write (kimi-k2.6, glm-4.6, grok-code-fast-1, qwen3-coder-plus, ...).
MAKERS = (
    ("kimi-", "moonshot"),
    ("glm-", "zai"),
    ("grok-", "xai"),
    ("gemini-", "vertex_ai"),
    ("qwen", "dashscope"),
    ("minimax-", "minimax"),
    ("deepseek-", "deepseek"),
)


#: The places a logged cost may take, in powers of ten of a dollar: a session's logged
#: costs are summed exactly (registry.prices.MONEY, 120 digits), and 1E+308 beside
#: 0.0042 needs 311 (a fuzzed OpenCode message's ``cost`` stopped the CLI with
#: decimal.Rounded, the seventeenth stop). No agent logs a cost past a trillion
#: dollars or below 10^-30 of one.
_DOLLAR_PLACES = range(-30, 13)


def dollars(raw: object) -> Decimal | None:
    """An agent's own cost of a request as US dollars (an integer or an exact decimal,
    finite, 0 or more, within :data:`_DOLLAR_PLACES`), or None where it is none: the
    agent's figure is shown beside ours and never bills, so a cost that is no such
    amount is no logged cost (the request is still billed from its tokens)."""
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = Decimal(raw)
    if not isinstance(raw, Decimal) or not raw.is_finite() or raw < 0:
        return None
    return raw if not raw or raw.adjusted() in _DOLLAR_PLACES else None


def cache_out(prompt: int, read: int, write: int) -> tuple[int, int, int]:
    """A cache-inclusive input (Copilot CLI's, Cline's) as (uncached, read, written):
    a cache count past what the input holds is read as the most it can hold, the reads
    first (a count is never made negative)."""
    read = min(read, prompt)
    write = min(write, prompt - read)
    return prompt - read - write, read, write


@functools.lru_cache(maxsize=512)
def registry_name(model: str, prefixes: tuple[str, ...] = ()) -> str:
    """The registry id a log's bare model name is priced at, when the registry does not
    know the name itself: ``<prefix>/<name>`` for the first of ``prefixes`` (the
    candidates ccusage's adapter for the agent tries), then of the name's maker
    (:data:`MAKERS`), that the registry has; else the name as written (unpriced)."""
    from budgetcore.registry.models import lookup, resolve  # noqa: PLC0415 - a model only

    if "/" in model or resolve(model).model is not None:
        return model
    lower = model.lower()
    makers = tuple(p for family, p in MAKERS if lower.startswith(family))
    # A version's dot written as a dash (Droid's names: glm-4-6), as ccusage's loose
    # match reads both spellings alike.
    dotted = re.sub(r"(?<=\d)-(?=\d)", ".", model)
    for name in dict.fromkeys((model, dotted)):
        for prefix in (*prefixes, *makers):
            if prefix and lookup(f"{prefix}/{name}") is not None:
                return f"{prefix}/{name}"
    return model
