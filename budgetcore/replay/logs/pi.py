"""pi (pi-coding-agent) session JSONL (docs/replay.md, "Other agents"):
``~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl``.

The shape, from pi-mono ``packages/coding-agent/docs/session.md`` (session format
version 3) and ccusage ``rust/crates/ccusage/src/adapter/pi/parser.rs`` @5816e640:

- a header ``{"type":"session","version":3,"id","timestamp","cwd"}``;
- entries with ``id`` / ``parentId`` (a tree: the branch replayed is the path to the
  last entry written, as pi's own leaf);
- ``{"type":"message","message":{"role":"assistant","model","provider","usage":{...}}}``
  is one request: ``usage.input`` is the uncached input (cache reads and writes are
  ``cacheRead`` / ``cacheWrite`` beside it), ``usage.cost.total`` pi's own cost;
- ``{"type":"compaction","tokensBefore"}`` a compaction. Its ``usage`` (pi-mono's
  ``CompactionEntry.usage``: "Usage from the LLM call(s) that generated this summary,
  if available"), and a ``branch_summary``'s, is the summary call: billed in the
  series ``summary:main`` at the model of the last response before it (pi summarises
  with the session's model), which ccusage 20.0.24 leaves out.
"""

from __future__ import annotations

from collections.abc import Sequence

from budgetcore.errors import Problem
from budgetcore.replay.logs.model import ParsedLog, summary_series
from budgetcore.replay.logs.reader import LineSource, Steps, count_of
from budgetcore.replay.logs.records import Shape
from budgetcore.replay.logs.tally import Row, Tally, dollars, registry_name

__all__ = ["LINE", "USAGE", "claims", "no_request_of", "read_pi"]

#: The keys the reader looks at, one record per line (records.Shape): the entry's
#: ``type`` and ``id`` texts (a value that is no text is None), ``parentId`` as written
#: (a parent neither text nor null makes the entry no tree entry: the loop's rule; so
#: does none at all, ABSENT, as in a file without its header: it is read in file
#: order, as a version 1 file is, where each entry was a root of its own), a
#: compaction's ``tokensBefore``, and a message's ``role``, ``model`` and ``provider``
#: texts and ``usage``: its counts (or the Problem naming the count that is not one),
#: with pi's own ``cost`` object beside them (its ``total``; any other value None).
USAGE = Shape(
    "PiUsage",
    ("input", "cacheRead", "cacheWrite", "output", "totalTokens", "cost"),
    (("cost", Shape("PiCost", ("total",))),),
    counts=True,
)
MESSAGE = Shape(
    "PiMessage",
    ("role", "model", "provider", "usage"),
    (("usage", USAGE),),
    texts=frozenset({"role", "model", "provider"}),
)
LINE = Shape(
    "PiRecord",
    (
        "type",
        "id",
        "parentId",
        "timestamp",
        "tokensBefore",
        "message",
        "parentSession",
        "usage",
        "provider",
        "modelId",
    ),
    (("message", MESSAGE), ("usage", USAGE)),
    texts=frozenset({"type", "id", "parentSession", "provider", "modelId"}),
    told=frozenset({"parentId"}),
)

PARENT_COPY = "response copied from the parent session"
#: The entries that may name the model pi runs from there on.
_MODEL_KINDS = frozenset({"session", "model_change"})

_ENTRY_TYPES = frozenset(
    {
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
    }
)
#: Entries a version 1 file (no ids) tells pi by: its message and settings changes.
_V1_ENTRY_TYPES = frozenset({"model_change", "thinking_level_change", "compaction"})
_TOTAL_ONLY = "log-line-total-only"
#: The counts only pi's usage is written in (Claude Code's and Droid's are
#: ``input_tokens`` ..., Amp's ``inputTokens`` ...).
_PI_COUNTS = frozenset({"input", "output", "cacheRead", "cacheWrite"})


def claims(obj: dict[str, object]) -> bool:
    """A pi line: the header (``type`` session with a ``cwd``), or an entry of pi's
    types with ``id`` and ``parentId`` (Claude Code's are ``uuid`` / ``parentUuid``).

    A version 1 session (pi before the tree, pi-mono's own test fixtures
    ``packages/coding-agent/test/fixtures/large-session.jsonl`` @83378aad) has no
    ``version`` in its header and no ids on its entries: its ``model_change`` and
    ``thinking_level_change`` lines are pi's alone, and a ``message`` line without an
    ``id`` is pi's (a Droid transcript's carry one). A ``message`` with an ``id`` and no
    ``parentId`` is pi's where the message is in pi's shape: a file without its header
    (a pi usage importer's test, code index id 58038215031), which ccusage reads as
    pi's. pi stamps every message with its epoch milliseconds (``message.timestamp``,
    pi-mono ``packages/ai/src/types.ts``) and writes its usage in its own counts; a Droid
    transcript's messages carry neither, Claude Code's lines no ``type`` message. So
    does a ``message`` without an ``id``: a Droid transcript's line without its ids (a
    session indexer's Droid test writes one user line so, held out in round 10d) was
    read as a pi file of one entry (:func:`.droid.claims` takes it)."""
    kind = obj.get("type")
    if kind == "session":
        return "cwd" in obj and "id" in obj
    if not isinstance(kind, str) or kind not in _ENTRY_TYPES or "uuid" in obj:
        return False
    message = obj.get("message")
    if "id" in obj:
        return "parentId" in obj or (kind == "message" and _pi_message(message))
    return kind in _V1_ENTRY_TYPES or (kind == "message" and _pi_message(message))


def _pi_message(message: object) -> bool:
    """A message in pi's shape: stamped with its epoch milliseconds (every message type
    of pi-mono ``packages/ai/src/types.ts`` and ``coding-agent/src/core/messages.ts``
    @83378aad has ``timestamp: number``), or with a usage in pi's own counts."""
    if not isinstance(message, dict):
        return False
    usage = message.get("usage")
    stamped = type(message.get("timestamp")) is int  # (a bool is no time)
    return stamped or (isinstance(usage, dict) and not _PI_COUNTS.isdisjoint(usage))


#: The events of ``pi --mode json`` that carry a response (pi-mono
#: ``packages/coding-agent/docs/json.md`` @3e3f805b: the session header, then
#: ``agent_start`` ... ``message_end``, ``turn_end``, ``agent_end``): pi's standard
#: output, which a runner captures; the session file beside it holds ``message`` entries.
_JSON_MODE_EVENTS = frozenset({"message_end", "turn_end", "agent_end"})


#: The kinds a file holds that a Droid transcript's lines are read as, where they carry
#: a Droid transcript's ``id`` and ``parentId`` and no header (agent-sessions' Droid
#: session fixtures, jazzyalex/agent-sessions @651e854f, have both on every message).
_DROID_ALIKE = frozenset({"message/user", "message/assistant (no usage)"})


def no_request_of(kinds: dict[str, int]) -> str:
    """Why a pi file without a request has none, from what it held: the captured output
    of ``pi --mode json`` (a third-party runner's test streams, held out in round 9),
    whose responses are events, not session entries; a file of user and assistant
    messages alone, no header and no usage, which a Droid transcript without its
    ``session_start`` line is too (the ids and parents of pi's tree are Droid's: nothing
    in such lines tells the two apart), said naming both; "" for any other file."""
    if _JSON_MODE_EVENTS & kinds.keys():
        return "log-pi-json-output"
    return "log-pi-or-droid" if kinds and kinds.keys() <= _DROID_ALIKE else ""


def _as_priced(priced: dict[tuple[str, str | None], str], model: str, provider: str | None) -> str:
    """A model as priced: ccusage prices a name its table lacks by a loose match; the
    registry id of the provider pi names, then of the name's maker, stands in."""
    found = priced.get((model, provider))
    if found is None:
        found = priced[model, provider] = registry_name(
            model, () if provider is None else (provider,)
        )
    return found


def read_pi(files: Sequence[tuple[str, LineSource]], *, what: str = "log") -> Steps[ParsedLog]:
    tally = Tally("pi")
    parents = tally.parents  # tree entries (only this reader writes them): seen ids
    priced: dict[tuple[str, str | None], str] = {}  # (model, provider) -> as priced
    summaries = summary_series("main")
    current: str | None = None  # the model of the last response read: a summary's
    for name, stream in files:
        here = tally.open(name)
        f = tally.files[here]
        # The lines the decoder found malformed are listed as it meets them, before the
        # reader sees their batch: the reader's own (bad counts) are put among them in
        # line order at the batch's end, as a line-by-line read lists them.
        marks = (0, len(tally.problems))
        forked_at = None  # a fork's header time: the entries before it are its parent's
        for i, (numbers, records, times) in enumerate(tally.timed_records(stream, what, LINE)):
            if i:  # between batches: the import may stop here (reader.Steps)
                yield
            stamps = tally.times.get("main")
            # The batch's requests, handed to the ledger at once (Tally.requests_of: a
            # keyword call of Tally.request per request cost about a microsecond), before
            # a compaction counts them and at the batch's end: in the order read.
            rows: list[Row] = []
            kinds: list[str] = []  # the batch's other lines, by kind
            bad: list[tuple[int, Problem]] = []  # the batch's lines with bad counts
            last = None  # the batch's last new tree entry
            for number, rec, time in zip(numbers, records, times, strict=True):
                kind = rec.type
                if kind in _MODEL_KINDS:
                    # The model pi runs from here on: a model_change's (pi-mono
                    # ModelChangeEntry {provider, modelId}), or an early header's (its
                    # SessionHeader had provider and modelId): a summary call before any
                    # response is priced at it (``current``).
                    named = rec.modelId
                    if named is not None and named.strip():
                        current = _as_priced(priced, named.strip(), rec.provider)
                    if kind == "session":
                        kinds.append("session")
                        if rec.parentSession is not None:
                            forked_at = time
                        continue
                if kind is None:
                    kinds.append("(no type)")
                    continue
                key = rec.id
                parent = rec.parentId
                if key is not None and (parent is None or parent.__class__ is str):
                    if key in parents:
                        tally.duplicate("entry written again (same id)")
                        continue
                    parents[key] = parent
                    last = key
                else:
                    key = None  # no tree entry: on every branch
                if time is not None:
                    if stamps is None:
                        stamps = tally.stamps("main")
                    stamps.append((key, time))
                summary = rec.usage
                if summary is not None and kind in ("compaction", "branch_summary"):
                    # The summary call's usage, on the entry it wrote: its request.
                    if summary.__class__ is Problem:
                        bad.append((number, summary))
                        continue
                    if forked_at is not None and time is not None and time < forked_at:
                        tally.duplicate(PARENT_COPY)  # the parent's, as its responses are
                        continue
                    tally.requests_of("main", rows)
                    rows = []
                    cost = summary.cost
                    call = (
                        number,
                        summary.input,
                        summary.cacheRead,
                        summary.output,
                        0,
                        current,
                        time,
                        key,
                        here,
                        summary.cacheWrite,
                        None if cost is None else dollars(cost.total),
                    )
                    if any(call[1:4]) or call[9]:
                        tally.requests_of(summaries, [call])
                    else:
                        kinds.append(f"{kind} (zero usage)")
                        summary = None
                if kind == "compaction":
                    if summary is None:
                        kinds.append("compaction")
                    before = count_of(rec.tokensBefore)
                    # Its place among the requests: those before it are counted first.
                    tally.requests_of("main", rows)
                    rows = []
                    tally.compaction(number, pre_tokens=before or None, time=time, node=key)
                    continue
                if summary is not None:
                    continue
                message = rec.message
                if kind != "message" or message is None:
                    kinds.append(kind)
                    continue
                role = message.role
                if role != "assistant":
                    kinds.append("message" if role is None else f"message/{role}")
                    continue
                usage = message.usage
                if usage is None:
                    kinds.append("message/assistant (no usage)")
                    continue
                if usage.__class__ is Problem:
                    bad.append((number, usage))
                    continue
                if forked_at is not None and time is not None and time < forked_at:
                    # A fork's file (its header names the parentSession) holds the
                    # parent's entries again, as written, before its own (pi-mono
                    # SessionManager.forkFrom, createBranchedSession): the parent's
                    # responses, billed by the parent, as Codex's fork copies are.
                    # They stay in the tree: the fork's own entries hang from them.
                    tally.duplicate(PARENT_COPY)
                    continue
                fresh, read, write = usage.input, usage.cacheRead, usage.cacheWrite
                output = usage.output
                if not (fresh or read or write or output):
                    total = usage.totalTokens
                    if total:
                        bad.append((number, Problem.of("message.usage", total, _TOTAL_ONLY)))
                    else:
                        kinds.append("message/assistant (zero usage)")
                    continue
                model = message.model
                model = _as_priced(priced, model, message.provider) if model else None
                current = model
                cost = usage.cost
                if cost is not None:  # most lines have none: no call
                    cost = dollars(cost.total)
                rows.append((number, fresh, read, output, 0, model, time, key, here, write, cost))
            tally.requests_of("main", rows)
            tally.entries(kinds)
            if last is not None:
                tally.last_node["main"] = last
            if bad or len(f.malformed) > marks[0]:
                _in_line_order(tally, bad, marks)
            marks = (len(f.malformed), len(tally.problems))
    return tally.session(files[0][0] if files else "")


def _in_line_order(tally: Tally, bad: list[tuple[int, Problem]], marks: tuple[int, int]) -> None:
    """A batch's malformed lines, the decoder's (listed since ``marks``) and the
    reader's (``bad``), listed in line order."""
    f = tally.files[-1]
    mine, problems = marks
    listed = list(zip(f.malformed[mine:], tally.problems[problems:], strict=True))
    del f.malformed[mine:]
    del tally.problems[problems:]
    ordered = sorted([(n, p, True) for n, p in listed] + [(n, p, False) for n, p in bad])
    for number, problem, placed in ordered:
        if placed:
            f.malformed.append(number)
            tally.problems.append(problem)
        else:
            tally.malformed(number, problem)
