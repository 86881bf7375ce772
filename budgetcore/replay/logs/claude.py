"""Claude Code session JSONL (docs/replay.md, "Claude Code"): a session file and its
subagent files become series of requests on their replayed branches.

Reading keeps, per line, only what the tree and the ledger need (ids, links, the
type, a few counts and times); each response's usage is folded into one request as
its copies arrive. The branches are walked once every file has been read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from itertools import count as counting
from itertools import repeat
from typing import TYPE_CHECKING, Any

from budgetcore.errors import Problem
from budgetcore.inputs.numbers import MAX_TOKENS, bound_text
from budgetcore.replay.logs.claude_advisor import (
    Call,
    advisor_calls,
    advisor_series,
    holds_advisor,
    usage_counts,
    write_split,
)
from budgetcore.replay.logs.claude_content import (
    compiled_is_prompt,
    compiled_thinks,
    compiled_tool_chars,
    is_prompt,
    thinks,
    tool_chars,
)
from budgetcore.replay.logs.compaction import LogCompaction
from budgetcore.replay.logs.model import (
    FileLedger,
    LogRequest,
    LogSeries,
    ParsedLog,
    new_request,
)
from budgetcore.replay.logs.reader import (
    BLANK,
    MAX_LOG_REQUESTS,
    LineSource,
    Malformed,
    Steps,
    at_line,
    compiled_batches,
    compiled_from,
    count_of,
    decode_line,
    finish,
    format_of,
    millis,
    millis_of,
    numbered_batches,
    too_many_requests,
)
from budgetcore.replay.logs.tally import dollars
from budgetcore.replay.logs.tally import label as cut_label

if TYPE_CHECKING:
    from budgetcore.replay.logs.compiled import ClaudeLine


__all__ = ["GATEWAYS", "read_claude_code"]

#: A message id's first 9 characters -> the cloud that served it (Amazon Bedrock's
#: Anthropic models answer "msg_bdrk_…", Google Vertex AI's "msg_vrtx_…"; Anthropic's own
#: API "msg_01…").
GATEWAYS = {"msg_bdrk_": "bedrock", "msg_vrtx_": "vertex"}
#: How Claude Code 2.x writes a background task's end to the main conversation: a user
#: message whose text starts with this tag (its task-id, output-file, status, summary
#: follow); the as-run model restarts the cache after it (docs/replay.md, "As run").
NOTICE = "<task-notification>"
#: The system line Claude Code writes when it clears old tool results from the messages
#: it sends without compacting ("Context microcompacted", ``microcompactMetadata`` with
#: the ``compactedToolIds``): the messages change before the end, so the as-run model
#: restarts the cache after it (docs/replay.md, "As run", step 3).
MICROCOMPACT = "microcompact_boundary"
#: The hook line a resumed session starts with: Claude Code runs the SessionStart hooks
#: with the source "resume" (``--resume``, ``--continue``, ``/resume``) and writes each as
#: a ``progress/hook_progress`` line named ``SessionStart:resume``. Only a session with a
#: SessionStart hook configured writes it; the as-run model restarts the cache after it
#: (docs/replay.md, "As run", step 3).
RESUME = "SessionStart:resume"
#: The user line Claude Code writes when the user types ``/exit``: the process ends
#: there, so a request after it in the same session was sent by a new process that
#: resumed it (``--resume``, ``--continue``), with or without a RESUME line (a session
#: with no SessionStart hook configured writes none). The as-run model restarts the
#: cache after it as after RESUME (docs/replay.md, "As run", step 3).
EXIT = "<command-name>/exit</command-name>"
#: The longest version string kept ("2.1.39" is 6): longer text is not a version.
MAX_VERSION = 40
_CONVERSATION = frozenset({"user", "assistant"})


class _Entry:
    """One line that is an entry (an object with a type or ids)."""

    __slots__ = (
        "cleared",
        "compaction",
        "file",
        "kind",
        "line",
        "message",
        "notice",
        "parent",
        "preserved",
        "prompt",
        "request",
        "resumed",
        "series",
        "time",
        "tool",
        "uuid",
    )

    def __init__(self, file: int, line: int) -> None:
        self.file = file
        self.line = line
        self.uuid: str | None = None
        self.parent: str | None = None  # parentUuid, else logicalParentUuid
        self.series = "main"
        self.kind = ""  # the ledger's type for an entry that is not a request
        self.request: _Request | None = None
        self.time: int | None = None
        self.message = False  # a user message (assistant lines count per response)
        self.notice = False  # a background task's notification (a user message)
        self.cleared = False  # Claude Code cleared old tool results here (MICROCOMPACT)
        # a new Claude Code process resumed the session here (RESUME), or the process
        # ended (EXIT) and any later request comes from a new one
        self.resumed = False
        self.prompt = False  # a user message with a block that is not a tool result
        self.tool = 0  # characters of tool_result content
        self.compaction: tuple[str | None, int | None] | None = None
        self.preserved: frozenset[str] = frozenset()


class _Request:
    """One response, its copies folded: the first copy's place, the best copy's
    numbers (largest output, then largest total; the first of equals)."""

    __slots__ = (
        "advisor",
        "best",
        "cost",
        "counts",
        "finished",
        "first",
        "model",
        "sent",
        "started",
        "thinks",
    )

    def __init__(self, entry: _Entry, counts: tuple[int, ...], model: str | None) -> None:
        self.first = entry
        self.thinks = False  # a copy of it carries a thinking block
        self.best = entry
        self.counts = counts  # input, write 5m, write 1h, read, output, context
        self.model = model
        self.started = entry.time
        self.finished = entry.time
        # When it was sent, as the log bounds it: the time of the entry its first line
        # answers (set where its series is built; None: not found).
        self.sent: int | None = None
        self.cost: Decimal | None = None
        self.advisor: tuple[Call, ...] = ()  # its advisor calls (claude_advisor)

    def offer(self, entry: _Entry, counts: tuple[int, ...], model: str | None) -> None:
        if self.started is None:
            self.started = entry.time
        old = self.counts
        # A main copy beats a subagent's (a /btw replay), then the largest output, then
        # the largest total; of equals the first.
        mine = entry.series == "main", counts[4], sum(counts[:5])
        best = self.best.series == "main", old[4], sum(old[:5])
        if mine > best:
            self.counts, self.best, self.finished = counts, entry, entry.time
            self.model = model if model is not None else self.model


def _label(obj: dict[str, Any]) -> str:
    kind = obj.get("type")
    if not isinstance(kind, str):
        return "(no type)"
    sub = obj.get("subtype")
    if kind == "progress":
        data = obj.get("data")
        sub = data.get("type") if isinstance(data, dict) else None
    label = f"{kind}/{sub}" if isinstance(sub, str) and sub else kind
    return cut_label(label)


class _Reader:
    def __init__(self) -> None:
        self.entries: list[_Entry] = []
        self.requests: dict[object, _Request] = {}
        self.main_ids: dict[str, _Request] = {}  # message.id of main requests (/btw rule)
        self.problems: list[Problem] = []
        self.files: list[str] = []
        self.blank: list[int] = []
        self.malformed: list[list[int]] = []
        self.lines: list[int] = []
        # One string object per uuid and per label: a parent link names an entry read
        # before, so it shares that entry's string instead of keeping its own copy.
        self.strings: dict[str, str] = {}
        self.runs = 0  # inline sidechain runs seen (Claude Code 1.0.x)
        self.run_of: dict[str, str] = {}  # uuid -> inline run's series
        self.last_run: str | None = None
        self.labels: dict[tuple[str | None, str | None], str] = {}  # compiled lines' labels
        self.seen = 0  # lines of the files read before
        self.other_series = False  # an entry of a series other than main was read
        self.preserving: list[_Entry] = []  # compactions that preserved a segment
        self.version = ""  # Claude Code's version on the main series' last request line
        # The version a main-series user line names, for a file whose request lines name
        # none (other projects' fixtures write it on the first user line only).
        self.user_version = ""

    # ---------------------------------------------------------------- one file

    def read(
        self,
        name: str,
        batches: Iterable[tuple[int, list[bytes]]],
        agent: str | None,
        decoder: Callable[[bytes], ClaudeLine] | None = None,
        *,
        compiled: bool = False,
    ) -> None:
        """:meth:`read_steps`, every step at once."""
        finish(self.read_steps(name, batches, agent, decoder, compiled=compiled))

    def read_steps(
        self,
        name: str,
        batches: Iterable[tuple[int, list[bytes]]],
        agent: str | None,
        decoder: Callable[[bytes], ClaudeLine] | None = None,
        *,
        compiled: bool = False,
    ) -> Steps[None]:
        """One file's lines (:func:`numbered_batches`), a step per batch. ``compiled``:
        read with the compiled decoder (:mod:`.compiled`) from
        :func:`~.reader.compiled_from` on, where installed; ``decoder``: that one from
        the first line."""
        index = len(self.files)
        self.files.append(name)
        blank = 0
        malformed: list[int] = []
        file = "" if index == 0 else name
        count = 0
        decode_batch = None if decoder is None else compiled_batches("claude-code", decoder)
        nothing = repeat(None)
        for first, batch in batches:
            count = first + len(batch) - 1
            if compiled and compiled_from(first + self.seen, sum(map(len, batch))):
                compiled = False
                decode_batch = compiled_batches("claude-code")
            decoded = None if decode_batch is None else decode_batch(batch)
            rows: Iterable[tuple[int, bytes, ClaudeLine | None, int | None]]
            if decoded is None:
                rows = zip(counting(first), batch, nothing, nothing)
            else:
                stamps = [None if d is None else d.timestamp for d in decoded]
                rows = zip(counting(first), batch, decoded, millis_of(stamps))
            for number, raw, line, time in rows:
                if (
                    line is not None
                    and not (line.payload or line.record_type or line.instructions or line.costUSD)
                    and not (line.type == "system" and line.subtype == "compact_boundary")
                ) and self.compiled_entry(index, number, line, time, agent):
                    continue
                obj = decode_line(raw)
                if obj is BLANK:
                    blank += 1
                    continue
                if isinstance(obj, Malformed):
                    malformed.append(number)
                    self.problems.append(at_line(file, number, obj.problem))
                    continue
                assert isinstance(obj, dict)
                if (
                    "payload" in obj or "record_type" in obj or "instructions" in obj
                ) and format_of(obj) == "codex":  # the keys format_of needs to say "codex"
                    malformed.append(number)
                    self.problems.append(
                        at_line(
                            file,
                            number,
                            Problem.coded(
                                "",
                                "log-line-codex-in-claude",
                            ),
                        )
                    )
                    continue
                problem = self.entry(index, number, obj, agent)
                if problem is not None:
                    malformed.append(number)
                    self.problems.append(at_line(file, number, problem))
            yield  # a batch taken in: the import may stop here
        self.seen += count
        self.lines.append(count)
        self.blank.append(blank)
        self.malformed.append(malformed)

    def entry(
        self, file: int, number: int, obj: dict[str, Any], agent: str | None
    ) -> Problem | None:
        e = _Entry(file, number)
        strings = self.strings
        uuid = obj.get("uuid")
        if isinstance(uuid, str):
            e.uuid = strings.setdefault(uuid, uuid)
        parent = obj.get("parentUuid")
        if not isinstance(parent, str):
            parent = obj.get("logicalParentUuid")
        if isinstance(parent, str):
            e.parent = strings.get(parent, parent)
        e.time = millis(obj.get("timestamp"))
        if file > 0:
            found = obj.get("agentId")
            e.series = f"sidechain:{found if isinstance(found, str) and found else agent}"
            self.other_series = True
        elif obj.get("isSidechain") is True:
            found = obj.get("agentId")
            if isinstance(found, str) and found:
                e.series = f"sidechain:{found}"
            else:
                e.series = self.inline_run(e)
            self.other_series = True
        kind = obj.get("type")
        message = obj.get("message")
        usage = message.get("usage") if isinstance(message, dict) else None
        if isinstance(usage, dict) and kind in ("assistant", None):
            assert isinstance(message, dict)
            model = message.get("model")
            model = model if isinstance(model, str) else None
            if model == "<synthetic>":
                e.kind = "assistant (<synthetic>)"
            else:
                problem = self.usage(e, obj, message, usage, model)
                if problem is not None:
                    return problem
        elif kind == "assistant":
            e.kind = "assistant (no usage)"
        else:
            label = _label(obj)
            e.kind = self.strings.setdefault(label, label)
            if kind == "user":
                e.message = True
                e.tool = tool_chars(message)
                if e.series == "main":
                    self.note_version(obj.get("version"), user=True)
                content = message.get("content") if isinstance(message, dict) else None
                e.notice = isinstance(content, str) and content.startswith(NOTICE)
                e.resumed = isinstance(content, str) and content.startswith(EXIT)
                e.prompt = is_prompt(message)
            elif kind == "system" and obj.get("subtype") == "compact_boundary":
                problem = self.boundary(e, obj)
                if problem is not None:
                    return problem
            elif kind == "system":
                e.cleared = obj.get("subtype") == MICROCOMPACT
            elif kind == "progress":
                data = obj.get("data")
                e.resumed = isinstance(data, dict) and data.get("hookName") == RESUME
        self.entries.append(e)
        return None

    def compiled_entry(
        self, file: int, number: int, line: ClaudeLine, time: int | None, agent: str | None
    ) -> bool:
        """:meth:`entry` for a line the compiled decoder took: the same steps on its
        typed fields (a text is a str or None, a count a valid int, so no check of
        entry's can fail here; a compaction boundary, a logged cost or a Codex key
        is decoded in full instead). False, and nothing read: a usage whose iterations
        hold an advisor call, which the full decode reads."""
        message = line.message
        usage = None if message is None else message.usage
        if usage is not None and usage.iterations and holds_advisor(usage.iterations):
            return False
        e = _Entry(file, number)
        strings = self.strings
        uuid = line.uuid
        if uuid is not None:
            e.uuid = strings.setdefault(uuid, uuid)
        parent = line.parentUuid
        if parent is None:
            parent = line.logicalParentUuid
        if parent is not None:
            e.parent = strings.get(parent, parent)
        e.time = time
        if file > 0:
            found = line.agentId
            e.series = f"sidechain:{found or agent}"
            self.other_series = True
        elif line.isSidechain is True:
            found = line.agentId
            e.series = f"sidechain:{found}" if found else self.inline_run(e)
            self.other_series = True
        kind = line.type
        if usage is not None and kind in ("assistant", None):
            assert message is not None
            model = message.model
            if model == "<synthetic>":
                e.kind = "assistant (<synthetic>)"
            else:
                fresh, write = usage.input_tokens, usage.cache_creation_input_tokens
                read, output = usage.cache_read_input_tokens, usage.output_tokens
                if not (fresh or write or read or output):
                    e.kind = "assistant (no tokens)"
                else:
                    split = usage.cache_creation
                    write_5m, write_1h = write, 0
                    if split is not None:
                        write_5m = split.ephemeral_5m_input_tokens
                        write_1h = split.ephemeral_1h_input_tokens
                    counts = (fresh, write_5m, write_1h, read, output, fresh + write + read)
                    folded = self.fold(e, counts, message.id, line.requestId, model)
                    if compiled_thinks(message):
                        folded.thinks = True
                    if e.series == "main":
                        self.note_version(line.version)
        elif kind == "assistant":
            e.kind = "assistant (no usage)"
        else:
            sub = line.subtype
            if kind == "progress":
                sub = None if line.data is None else line.data.type
            label = self.labels.get((kind, sub))
            if label is None:
                label = _label({"type": kind, "subtype": sub, "data": {"type": sub}})
                label = self.labels[(kind, sub)] = strings.setdefault(label, label)
            e.kind = label
            if kind == "user":
                e.message = True
                e.tool = compiled_tool_chars(message)
                if e.series == "main":
                    self.note_version(line.version, user=True)
                content = None if message is None else message.content
                e.notice = isinstance(content, str) and content.startswith(NOTICE)
                e.resumed = isinstance(content, str) and content.startswith(EXIT)
                e.prompt = compiled_is_prompt(message)
            elif kind == "system":
                e.cleared = sub == MICROCOMPACT
            elif kind == "progress":
                e.resumed = line.data is not None and line.data.hookName == RESUME
        self.entries.append(e)
        return True

    def note_version(self, version: object, *, user: bool = False) -> None:
        """Keep the version a main request's line names (at most 40 characters: a
        version, never a whole text); ``user``: a main user line's, kept apart."""
        if isinstance(version, str) and 0 < len(version) <= MAX_VERSION:
            if user:
                self.user_version = version
            else:
                self.version = version

    def inline_run(self, e: _Entry) -> str:
        """The series of a sidechain entry without agentId: its run, a chain of
        sidechain entries from its own root."""
        run: str | None
        run = None if e.parent is None else self.run_of.get(e.parent, self.last_run)
        if run is None:
            self.runs += 1
            run = f"sidechain-{self.runs}"
        if e.uuid is not None:
            self.run_of[e.uuid] = run
        self.last_run = run
        return run

    def usage(
        self,
        e: _Entry,
        obj: dict[str, Any],
        message: dict[str, Any],
        usage: dict[str, Any],
        model: str | None,
    ) -> Problem | None:
        found_counts = usage_counts(usage, "message.usage")
        if isinstance(found_counts, Problem):
            return found_counts
        fresh, write, read, output = found_counts
        advisor = advisor_calls(usage.get("iterations"))
        if isinstance(advisor, Problem):
            return advisor
        if not (fresh or write or read or output or advisor):
            # An API error's placeholder (real model, all counts 0): nothing was billed,
            # and a turn of context 0 would make the next one add the whole context.
            e.kind = "assistant (no tokens)"
            return None
        split = write_split(usage, write, "message.usage")
        if isinstance(split, Problem):
            return split
        write_5m, write_1h = split
        counts = (fresh, write_5m, write_1h, read, output, fresh + write + read)
        mid, rid = message.get("id"), obj.get("requestId")
        found = self.fold(
            e,
            counts,
            mid if isinstance(mid, str) else None,
            rid if isinstance(rid, str) else None,
            model,
        )
        if thinks(message):
            found.thinks = True
        if advisor and (found.best is e or not found.advisor):
            found.advisor = advisor  # the best copy's calls (streaming repeats them)
        if e.series == "main":
            self.note_version(obj.get("version"))
        cost = obj.get("costUSD")
        if found.best is e and isinstance(cost, int | Decimal) and not isinstance(cost, bool):
            found.cost = dollars(cost)
        return None

    def fold(
        self,
        e: _Entry,
        counts: tuple[int, ...],
        mid: str | None,
        rid: str | None,
        model: str | None,
    ) -> _Request:
        """The request ``e`` is a copy of (made when it is the first): by message id
        and request id, else a subagent's copy of a main response, else its own."""
        key: object = (mid, rid) if mid is not None else e
        found = self.requests.get(key)
        if found is None and e.series != "main" and mid is not None:
            found = self.main_ids.get(mid)  # a subagent replaying a main response (/btw)
            if found is not None:
                e.kind = "copy of a main request"
        if found is None:
            if len(self.requests) >= MAX_LOG_REQUESTS:
                raise too_many_requests(MAX_LOG_REQUESTS)
            found = _Request(e, counts, model)
            self.requests[key] = found
            if e.series == "main" and mid is not None:
                self.main_ids.setdefault(mid, found)
        else:
            found.offer(e, counts, model)
        e.request = found
        return found

    def boundary(self, e: _Entry, obj: dict[str, Any]) -> Problem | None:
        meta = obj.get("compactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        trigger = meta.get("trigger") if isinstance(meta.get("trigger"), str) else None
        raw = meta.get("preTokens")
        pre = None if raw is None else count_of(raw)
        if raw is not None and pre is None:
            return Problem.of(
                "compactMetadata.preTokens",
                raw,
                "log-line-count",
                high=bound_text(MAX_TOKENS),
            )
        e.compaction = (trigger, pre)
        kept: set[str] = set()
        seg = meta.get("preservedSegment")
        if isinstance(seg, dict):
            kept.update(v for k in ("headUuid", "tailUuid") if isinstance(v := seg.get(k), str))
        msgs = meta.get("preservedMessages")
        if isinstance(msgs, dict) and isinstance(msgs.get("uuids"), list):
            kept.update(u for u in msgs["uuids"] if isinstance(u, str))
        e.preserved = frozenset(kept)
        if kept:
            self.preserving.append(e)
        return None

    # ---------------------------------------------------------------- the session

    def session(self, name: str) -> ParsedLog:
        by_series: dict[str, list[_Entry]] = {"main": self.entries}
        if self.other_series:  # else every entry is the main series'
            by_series = {}
            for e in self.entries:
                by_series.setdefault(e.series, []).append(e)
        built: list[LogSeries] = []
        orphans: list[list[int]] = [[] for _ in self.files]
        placed: dict[_Request, tuple[str, bool]] = {}  # request -> (series, on branch)
        for series, entries in by_series.items():
            built.append(self.series(series, entries, orphans, placed))
        advised = [
            (r.first.file, r.first.line, r.started, r.finished, r.advisor)
            for r in self.requests.values()
            if r.advisor
        ]
        if advised:  # billed beside their responses, never turns (claude_advisor)
            built.append(advisor_series(advised))
        built = [s for s in built if s.requests or s.abandoned]
        built.sort(key=lambda s: (not s.requests, s.name != "main"))  # stable
        ledger = self.ledger(orphans, placed)
        duplicates = sum(n for f in ledger for _, n in f.duplicates)
        ids = tuple(
            (req.first.file, req.first.line, key[0], key[1])
            for key, req in self.requests.items()
            if type(key) is tuple and key[1] is not None
        )
        # Amazon Bedrock and Google Vertex AI answer with their own message id prefixes;
        # the most frequent one names the session's gateway.
        clouds: dict[str, int] = {}
        for key in self.requests:
            if type(key) is tuple and isinstance(key[0], str):
                cloud = GATEWAYS.get(key[0][:9], "")
                clouds[cloud] = clouds.get(cloud, 0) + 1
        gateway = max(clouds, key=lambda c: (clouds[c], c == ""), default="")
        return ParsedLog(
            "claude-code",
            tuple(built),
            tuple(self.problems),
            duplicates,
            None,
            ledger,
            name,
            tuple(self.files),
            ids,
            gateway=gateway,
            version=self.version or self.user_version,
        )

    def series(
        self,
        name: str,
        entries: list[_Entry],
        orphans: list[list[int]],
        placed: dict[_Request, tuple[str, bool]],
    ) -> LogSeries:
        preserving = [e for e in self.preserving if e.series == name]
        branch = _branch(entries, orphans, preserving)
        requests: list[LogRequest] = []
        compactions: list[LogCompaction] = []
        pending: list[_Entry] = []
        times: list[int] = []
        talk: list[int] = []  # the conversation lines' times (user and assistant entries)
        firsts: list[_Entry] = []  # each request's first copy, in file order
        messages = tool = 0
        notified: list[int] = []
        noticed = False  # a task notification since the last request
        cleared: list[int] = []
        swept = False  # old tool results cleared (MICROCOMPACT) since the last request
        resumed: list[int] = []
        restarted = False  # the session resumed (RESUME) since the last request
        prompted: list[int] = []
        asked = False  # a user block that is not a tool result since the last request
        thinking: list[int] = []
        seen_uuid: set[str] = set()
        # Each uuid's first time: a request's first line names the entry it answers
        # (parentUuid), which Claude Code wrote before sending it (the user's prompt, a
        # tool result), so that entry's time bounds when the request was sent.
        written: dict[str, int] = {}
        on = branch is None  # on the replayed branch (an entry without a uuid: as before)
        for e in entries:
            req = e.request
            uuid = e.uuid
            if req is not None and req.first is e:
                firsts.append(e)
                answered = e.parent
                if answered is not None:
                    req.sent = written.get(answered)
            if uuid is not None and e.time is not None and uuid not in written:
                written[uuid] = e.time
            if uuid is not None:
                if branch is not None:
                    on = uuid in branch
                if on:
                    if uuid in seen_uuid:
                        continue  # a copy written again later (a compaction, a resume)
                    seen_uuid.add(uuid)
            if not on:
                continue
            if e.time is not None:
                times.append(e.time)
                if e.message or e.request is not None or e.kind.startswith("assistant"):
                    talk.append(e.time)
            if e.compaction is not None:
                pending.append(e)
                messages = tool = 0  # the model now sees the summary, not the history
                continue
            if req is None:
                swept = swept or e.cleared
                restarted = restarted or e.resumed
                if e.message:
                    messages += 1
                    tool += e.tool
                    noticed = noticed or e.notice
                    asked = asked or e.prompt
                continue
            if req.first.series != name or req in placed:
                continue  # placed already (a split line of the same response)
            placed[req] = (name, True)
            out = _request(req, messages, tool)
            messages += 1
            for c in pending:
                compactions.append(_compaction(c, len(requests), out.context))
            pending.clear()
            if noticed:
                notified.append(len(requests))
                noticed = False
            if swept:
                cleared.append(len(requests))
                swept = False
            if restarted:
                resumed.append(len(requests))
                restarted = False
            if asked:
                prompted.append(len(requests))
                asked = False
            if req.thinks:
                thinking.append(len(requests))
            requests.append(out)
        for c in pending:
            compactions.append(_compaction(c, len(requests), None))
        abandoned: list[LogRequest] = []
        for e in firsts:
            req = e.request
            assert req is not None
            if req not in placed:
                placed[req] = (name, False)
                abandoned.append(_request(req, None, None))
        return LogSeries(
            name,
            tuple(requests),
            tuple(compactions),
            tuple(abandoned),
            tuple(times),
            notified=tuple(notified),
            conversation_times=tuple(talk),
            cleared=tuple(cleared),
            resumed=tuple(resumed),
            prompted=tuple(prompted),
            thinking=tuple(thinking),
        )

    def ledger(
        self, orphans: list[list[int]], placed: dict[_Request, tuple[str, bool]]
    ) -> tuple[FileLedger, ...]:
        per_file: list[dict[str, list[int]]] = [{} for _ in self.files]
        dups: list[dict[str, int]] = [{} for _ in self.files]
        kinds: list[dict[str, int]] = [{} for _ in self.files]
        for e in self.entries:
            req = e.request
            if req is None:
                kinds[e.file][e.kind] = kinds[e.file].get(e.kind, 0) + 1
            elif req.first is e:
                series, on = placed[req]
                row = per_file[e.file].setdefault(series, [0, 0])
                row[0 if on else 1] += 1
            else:
                kind = e.kind or "copy of a request"
                dups[e.file][kind] = dups[e.file].get(kind, 0) + 1
        out = []
        for i, name in enumerate(self.files):
            reqs = sorted(per_file[i].items(), key=lambda kv: (kv[0] != "main", kv[0]))
            out.append(
                FileLedger(
                    name=name,
                    lines=self.lines[i],
                    blank=self.blank[i],
                    malformed=tuple(self.malformed[i]),
                    requests=tuple((s, on, off) for s, (on, off) in reqs),
                    duplicates=tuple(sorted(dups[i].items())),
                    entries=tuple(sorted(kinds[i].items(), key=lambda kv: (-kv[1], kv[0]))),
                    orphans=tuple(sorted(orphans[i])),
                )
            )
        return tuple(out)


def _request(req: _Request, messages: int | None, tool: int | None) -> LogRequest:
    fresh, write_5m, write_1h, read, output, context = req.counts
    first = req.first
    return new_request(  # LogRequest's fields in order
        (
            first.line,
            context,
            output,
            read,
            write_5m + write_1h,
            req.model,
            messages,
            tool,
            fresh,
            write_1h,
            0,  # reasoning: Claude Code logs none
            req.started,
            req.finished,
            first.file,
            req.cost,
            _sent(req),
        )
    )


def _sent(req: _Request) -> int | None:
    """When ``req`` was sent, as the log bounds it: the time of the entry it answers,
    never after its own first line (a clock that ran back says nothing)."""
    sent, started = req.sent, req.started
    if sent is None or started is None or sent > started:
        return None
    return sent


def _compaction(e: _Entry, after: int, post: int | None) -> LogCompaction:
    assert e.compaction is not None
    trigger, pre = e.compaction
    return LogCompaction(e.line, after, trigger, pre, post, e.file, e.time)


def _branch(
    entries: list[_Entry], orphans: list[list[int]], preserving: Sequence[_Entry] = ()
) -> set[str] | None:
    """The uuids on the replayed branch, None when every entry is on it: the path from
    the series' last conversation entry back to its root, through every copy's parent
    link; when that path holds no request (the last entry is a new root with no reply
    yet), the path from the last request instead. A parent that is not in the series
    continues from the entry before it in file order (the ledger lists it); an entry
    without a uuid goes with the entry before it; a series without any link is one
    branch in file order; a preserved-segment compaction (one of ``preserving``, in file
    order) is on the branch when what it preserved is."""
    if not any(e.parent is not None for e in entries):
        return None
    known = {e.uuid for e in entries if e.uuid is not None}
    parent_of: dict[str, str | None] = {}  # one link per uuid, the common case
    more: dict[str, list[str]] = {}  # the other links of a uuid written more than once
    previous: str | None = None
    for e in entries:
        uuid = e.uuid
        if uuid is None:
            continue
        link = e.parent
        if link is not None and link not in known:
            orphans[e.file].append(e.line)
            link = previous if previous != uuid else None
        if uuid not in parent_of:
            parent_of[uuid] = link
        elif link is not None and link != parent_of[uuid]:
            more.setdefault(uuid, []).append(link)
        previous = uuid
    last = next(
        (
            e
            for e in reversed(entries)
            if e.uuid is not None and (e.request is not None or e.kind in _CONVERSATION)
        ),
        None,
    )
    if last is None:
        last = next((e for e in reversed(entries) if e.uuid is not None), None)
    branch = _walk(None if last is None else last.uuid, parent_of, more)
    if (
        last is not None
        and last.request is None
        and not any(e.request is not None and e.uuid in branch for e in entries)
    ):
        # The last entry starts a chain of its own with no request yet (a new root
        # after the last reply): the branch is the one that leads to the last request.
        answered = next((e.uuid for e in reversed(entries) if e.request and e.uuid), None)
        if answered is not None:
            branch = _walk(answered, parent_of, more)
    for e in preserving:
        if e.uuid is not None and e.preserved & branch:
            branch.add(e.uuid)
    return branch


def _walk(
    start: str | None, parent_of: dict[str, str | None], more: dict[str, list[str]]
) -> set[str]:
    """The uuids from ``start`` up to its root, through every copy's parent link."""
    branch: set[str] = set()
    add, parent = branch.add, parent_of.get
    todo: list[str | None] = [start]
    while todo:  # up each chain of parent links, the other links of a uuid kept for later
        node = todo.pop()
        while node is not None and node not in branch:
            add(node)
            if more:
                todo.extend(more.get(node, ()))
            node = parent(node)
    return branch


def read_claude_code(
    files: Sequence[tuple[str, LineSource]], *, what: str = "log"
) -> Steps[ParsedLog]:
    """A Claude Code session, in steps: ``files[0]`` is the session file, the others its
    subagent files (``<session>/subagents/agent-*.jsonl``)."""
    reader = _Reader()
    for i, (name, stream) in enumerate(files):
        agent = None
        if i > 0:
            stem = name.rsplit("/", 1)[-1].removesuffix(".jsonl")
            agent = stem.removeprefix("agent-")
        yield from reader.read_steps(name, numbered_batches(stream, what), agent, compiled=True)
    log = reader.session(files[0][0] if files else "")
    for e in reader.entries:  # an entry and its request hold each other: let go of both
        e.request = None  # (freed now, not by the cycle collector, which may be off)
    return log
