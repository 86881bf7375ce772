"""A reader's records (``budgetcore.replay.logs.records``), for every reader that reads
by attribute (Kimi CLI, OpenCode, Gemini CLI, Qwen Code, pi): the compiled struct decoded
from a line's bytes and the standard library's decode made a record (the page's path)
have the same attributes, on generated lines in each agent's real shape with any key
now and then holding any other JSON value; and a whole session reads to the same
ParsedLog either way.

The oracle of which lines the struct refuses is written from the rules the shapes
declare, not from the struct: a text holding something other than a string or null, a
nested key something other than an object or null, a count anything other than a whole
number from 0 to 10^12 written as one, under a counts object a nested object of other
values (pi's ``usage.cost``) that does not fit in turn. A line in the agent's ordinary shape always
fits, so it is always taken.
"""

from __future__ import annotations

import io
import json
import sqlite3
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, Problem
from budgetcore.inputs.numbers import MAX_TOKENS, bound_text
from budgetcore.replay.logs import (
    droid,
    gemini,
    kimi,
    opencode,
    pi,
    qwen,
    read_session,
    reader,
    records,
    tally,
)
from budgetcore.replay.logs.records import Shape, fields_of, record_of
from tests.profiles import examples
from tests.property.strategies import json_values, marked

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")
needs_decoder = pytest.mark.skipif(
    compiled.record_decoder(kimi.LINE) is None,
    reason="the compiled decoder is not offered on this interpreter",
)

_SETTINGS = settings(
    max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def canon(value: object) -> object:
    """A value with its types spelt out (1, True, 1.0 and Decimal 1 all differ)."""
    if isinstance(value, tuple):
        return ("record", [canon(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(k, canon(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [canon(v) for v in value])
    if isinstance(value, NonFinite):
        return ("nonfinite", value.text)
    if isinstance(value, Decimal):
        return ("decimal", str(value))
    if value is records.ABSENT:
        return ("absent",)
    if isinstance(value, Problem):
        return ("problem", value)
    return (type(value).__name__, value)


def fits(value: dict[str, Any], shape: Shape) -> bool:
    """Whether the struct takes the object, by the shape's declared rules: every text
    null or a string, every nested key null or an object that fits, every count under
    a counts key missing or a whole number from 0 to 10^12 written as one (msgspec is
    strict: not null, 12.0 or true)."""
    for name in shape.keys:
        key = shape.key_of(name)
        if key not in value or value[key] is None:
            continue
        inner = value[key]
        sub = shape.under(name)
        if name in shape.texts and not isinstance(inner, str):
            return False
        if sub is None:
            continue
        if not isinstance(inner, dict):
            return False
        if sub.counts:
            if not fits_counts(inner, sub):
                return False
        elif not fits(inner, sub):
            return False
    return True


def fits_counts(inner: dict[str, Any], shape: Shape) -> bool:
    """Whether the struct takes an object of counts: each count missing or a whole
    number from 0 to 10^12 written as one, each nested object (of counts or of other
    values) missing, null or one that fits in turn."""
    for name in shape.keys:
        k = shape.key_of(name)
        if k not in inner:
            continue
        sub = shape.under(name)
        if sub is None:
            if not (type(inner[k]) is int and 0 <= inner[k] <= 10**12):
                return False
        elif inner[k] is not None and not (
            isinstance(inner[k], dict)
            and (fits_counts(inner[k], sub) if sub.counts else fits(inner[k], sub))
        ):
            return False
    return True


def oracle_counts(v: object, shape: Shape, path: str) -> object:
    """An object of counts by the stated rules: its own counts by reader.count_of (the
    first that is none its Problem), then each nested object of counts (missing or
    null: None) or of other values (a record; missing, null or no object: None), the
    values in the shape's key order."""
    if not isinstance(v, dict):
        return Problem.of(path, v, "log-line-counts")
    found: dict[str, object] = {}
    for name in shape.keys:
        if shape.under(name) is None:
            written = shape.key_of(name)
            count = reader.count_of(v.get(written))
            if count is None:
                return Problem.of(
                    f"{path}.{written}", v[written], "log-line-count", high=bound_text(MAX_TOKENS)
                )
            found[name] = count
    for name, sub in shape.nested:
        inner = v.get(shape.key_of(name))
        if inner is not None and not sub.counts:
            at = f"{path}.{shape.key_of(name)}."
            inner = oracle(inner, sub, at) if isinstance(inner, dict) else None
        elif inner is not None:
            inner = oracle_counts(inner, sub, f"{path}.{shape.key_of(name)}")
            if isinstance(inner, Problem):
                return inner
        found[name] = inner
    return tuple(found[name] for name in shape.keys)


def oracle(value: dict[str, Any], shape: Shape, at: str = "") -> tuple[object, ...]:
    """The record's values by the rules docs/replay.md ("Reading") states, written
    apart from records.record_of: the fields_of of any line's record, refused or not.
    Counts by reader.count_of, the count rule every reader shares."""
    out: list[object] = []
    for name in shape.keys:
        key = shape.key_of(name)
        sub = shape.under(name)
        if key not in value:
            out.append(records.ABSENT if name in shape.told else None)
            continue
        v = value[key]
        if name in shape.texts:
            v = v if isinstance(v, str) else None
        elif sub is not None and v is not None and sub.counts:
            v = oracle_counts(v, sub, at + key)
        elif sub is not None and v is not None:
            v = oracle(v, sub, f"{at}{key}.") if isinstance(v, dict) else None
        out.append(v)
    return tuple(out)


JSON_VALUES = json_values(6, 6)
COUNTS = st.one_of(
    st.integers(min_value=0, max_value=90_000),
    st.none(),
    st.sampled_from([-1, 10**13, 1.0, 2.5, "7", True]),
)
TIMES = st.one_of(
    st.integers(min_value=1_767_225_600, max_value=1_777_000_000),
    st.sampled_from(["2026-06-14T12:00:00Z", "2026-04-20T16:48:10.072Z", 1.5, None, -3]),
)


def odd(draw: st.DrawFn, value: dict[str, Any]) -> dict[str, Any]:
    """Now and then a key dropped, or holding any JSON value instead."""
    if value and draw(st.integers(0, 5)) == 0:
        key = draw(st.sampled_from(sorted(value)))
        if draw(st.booleans()):
            del value[key]
        else:
            value[key] = draw(JSON_VALUES)
    return value


@st.composite
def kimi_usage(draw: st.DrawFn, keys: tuple[str, ...]) -> dict[str, Any]:
    return odd(draw, {k: draw(COUNTS) for k in keys})


@st.composite
def kimi_message(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(
            ["StatusUpdate", "ContentPart", "CompactionBegin", "TurnBegin", "SubagentEvent", 7]
        )
    )
    payload: dict[str, Any] = {}
    if kind == "SubagentEvent" and depth == 0:
        payload = {"agent_id": draw(st.sampled_from(["a1", "a2", 3])), "type": "x"}
        payload["event"] = draw(kimi_message(depth + 1))
    elif kind == "StatusUpdate":
        payload = {
            "token_usage": draw(kimi_usage(kimi._USAGE)),
            "message_id": draw(st.sampled_from(["m1", "m2", "m3", 4, None, True])),
        }
        if draw(st.booleans()):
            payload["max_context_tokens"] = draw(st.sampled_from([262_144, 0, None, "8k"]))
    else:
        payload = {"type": "text", "text": draw(st.text(max_size=12))}
    return odd(draw, {"type": kind, "payload": payload})


@st.composite
def kimi_line(draw: st.DrawFn) -> dict[str, Any]:
    form = draw(st.integers(0, 5))
    if form == 0:
        return {"type": "metadata", "protocol_version": "1.3"}
    if form == 1:  # Kimi Code's flat records
        kind = draw(
            st.sampled_from(
                ["usage.record", "full_compaction.begin", "full_compaction.complete", "turn.prompt"]
            )
        )
        line: dict[str, Any] = {"type": kind, "time": draw(TIMES)}
        if kind == "usage.record":
            line["usage"] = draw(kimi_usage(kimi._CODE_USAGE))
            line["model"] = draw(st.sampled_from(["kimi-code/kimi-for-coding", "kimi-k2.6", ""]))
            line["usageScope"] = draw(st.sampled_from(["turn", "session"]))
        if kind == "full_compaction.begin":
            line["source"] = draw(st.sampled_from(["manual", "auto", None]))
        return odd(draw, line)
    return odd(draw, {"timestamp": draw(TIMES), "message": draw(kimi_message())})


def _read_kimi(files: list[tuple[str, bytes]]) -> Any:
    return reader.finish(kimi.read_kimi([(name, io.BytesIO(data)) for name, data in files]))


@needs_decoder
@_SETTINGS
@given(
    main=st.lists(kimi_line(), max_size=12),
    agent=st.lists(kimi_line(), max_size=4),
    batch=st.sampled_from([1, 3, 512]),
)
def test_a_kimi_session_reads_alike_either_way(
    main: list[dict[str, Any]], agent: list[dict[str, Any]], batch: int
) -> None:
    def wire(lines: list[dict[str, Any]]) -> bytes:
        return b"".join(json.dumps(x).encode() + b"\n" for x in lines)

    files = [("s/wire.jsonl", wire(main))]
    if agent:
        files.append(("s/subagents/a1/wire.jsonl", wire(agent)))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BATCH_LINES", batch)
        mp.setattr(tally, "record_batches", lambda shape: None)
        plain = _read_kimi(files)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BATCH_LINES", batch)
        mp.setattr(tally, "compiled_from", lambda line, size=0: True)
        typed = _read_kimi(files)
    assert typed == plain


@st.composite
def opencode_message(draw: st.DrawFn) -> dict[str, Any]:
    tokens: dict[str, Any] = {k: draw(COUNTS) for k in opencode._TOKENS}
    tokens["cache"] = odd(draw, {k: draw(COUNTS) for k in opencode._CACHE})
    message: dict[str, Any] = {
        "id": draw(st.sampled_from(["msg_1", "msg_2", "", 5])),
        "sessionID": "ses_1",
        "role": draw(st.sampled_from(["assistant", "assistant", "user", None])),
        "time": odd(draw, {"created": draw(TIMES), "completed": draw(TIMES)}),
        "tokens": odd(draw, tokens),
        "cost": draw(st.sampled_from([0, 0.0123, None, 2, "1"])),
        "parts": [{"type": "text", "text": draw(st.text(max_size=12))}],
    }
    if draw(st.booleans()):
        message["modelID"] = draw(st.sampled_from(["claude-sonnet-4-5", "k2p6", " ", None]))
        message["providerID"] = draw(st.sampled_from(["anthropic", "moonshot-ai", None]))
    else:
        ref = {"id": draw(st.sampled_from(["gpt-5", None])), "providerID": "openai"}
        message["model"] = odd(draw, ref)
    if draw(st.integers(0, 4)) == 0:
        message["summary"] = draw(st.sampled_from([True, False, "yes"]))
        if draw(st.booleans()):
            message["error"] = draw(
                st.sampled_from([None, {"name": "APIError", "data": {"message": "x"}}, "x"])
            )
    if draw(st.integers(0, 4)) == 0:
        # A newer session_message compaction row's own keys (message-updater.ts).
        message["reason"] = draw(st.sampled_from(["auto", "manual", None, 1]))
        message["status"] = draw(st.sampled_from(["completed", "failed", "running", None]))
    return odd(draw, message)


def _read_opencode(rows: list[tuple[str, str, str]], v2: list[tuple[str, str, str]]) -> Any:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT)")
    db.executemany("INSERT INTO session VALUES (?, ?)", [("s1", None), ("s2", "s1")])
    db.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)")
    db.executemany("INSERT INTO message VALUES (?, ?, ?)", rows)
    if v2:
        db.execute("CREATE TABLE session_message (id TEXT, session_id TEXT, type TEXT, data TEXT)")
        db.executemany(
            "INSERT INTO session_message VALUES (?, ?, 'assistant', ?)",
            [(i, s, d) for i, s, d in v2],
        )
    try:
        return opencode.read_opencode_db(db, "opencode.db")
    finally:
        db.close()


@needs_decoder
@_SETTINGS
@given(
    messages=st.lists(
        st.tuples(opencode_message(), st.sampled_from(["s1", "s2"]), st.booleans()), max_size=10
    ),
    batch=st.sampled_from([1, 3, 512]),
)
def test_an_opencode_database_reads_alike_either_way(
    messages: list[tuple[dict[str, Any], str, bool]], batch: int
) -> None:
    rows = []
    v2 = []
    for k, (message, session, newer) in enumerate(messages):
        # A session_message row's type is its role: some have none of their own.
        data = json.dumps({k: v for k, v in message.items() if not (newer and k == "role")})
        (v2 if newer else rows).append((f"m{k}", session, data))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(opencode, "BATCH_LINES", batch)
        mp.setattr(opencode, "record_batches", lambda shape: None)
        plain = _read_opencode(rows, v2)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(opencode, "BATCH_LINES", batch)
        mp.setattr(opencode, "compiled_from", lambda line, size=0: True)
        typed = _read_opencode(rows, v2)
    assert typed == plain


@st.composite
def opencode_tables(draw: st.DrawFn) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Rows of message and session_message (id, session, time, data), written in any
    order, times often alike; each id once (the two tables may share one: read once)."""
    n = draw(st.integers(0, 12))
    ids = [f"m{k}" for k in range(n)]
    rows: list[tuple[Any, ...]] = []
    v2: list[tuple[Any, ...]] = []
    for mid in draw(st.permutations(ids)):
        session = draw(st.sampled_from(["s1", "s2", "s3"]))
        when = draw(st.integers(0, 3))
        data = json.dumps({"role": "assistant", "tokens": {"input": when + 1}, "id": mid})
        place = draw(st.integers(0, 2))
        if place != 1:
            rows.append((mid, session, when, data))
        if place != 0:
            v2.append((mid, session, when, data))
    return rows, v2


def _database(rows: list[tuple[Any, ...]], v2: list[tuple[Any, ...]], rowid: bool) -> Any:
    """A database of those rows; ``rowid``: its tables' rowids under every name SQLite
    gives them, or hidden behind columns so named (then sorted whole)."""
    db = sqlite3.connect(":memory:")
    hide = "" if rowid else ", rowid INTEGER, _rowid_ INTEGER, oid INTEGER"
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT)")
    db.executemany("INSERT INTO session VALUES (?, ?)", [("s1", None), ("s2", "s1"), ("s3", None)])
    db.execute(f"CREATE TABLE message (id TEXT, session_id TEXT, time_created, data{hide})")
    db.execute(
        f"CREATE TABLE session_message (id TEXT, session_id TEXT, type TEXT, time_created,"
        f" data{hide})"
    )
    db.executemany(
        "INSERT INTO message (id, session_id, time_created, data) VALUES (?, ?, ?, ?)", rows
    )
    db.executemany(
        "INSERT INTO session_message (id, session_id, type, time_created, data)"
        " VALUES (?, ?, 'assistant', ?, ?)",
        v2,
    )
    return db


@_SETTINGS
@given(tables=opencode_tables(), batch=st.sampled_from([1, 2, 512]))
def test_an_opencode_database_reads_alike_sorted_by_keys_or_whole(
    tables: tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]], batch: int
) -> None:
    """The rows sorted by their keys, each chunk's data then fetched by rowid, come in
    the order of the whole rows sorted, to the same sessions."""
    rows, v2 = tables
    read = []
    for rowid in (True, False):
        db = _database(rows, v2, rowid)
        try:
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(opencode, "BATCH_LINES", batch)
                read.append(opencode.read_opencode_db(db, "opencode.db"))
        finally:
            db.close()
    by_keys, whole = read
    assert by_keys == whole
    assert sum(len(s.requests) for log in whole for s in log.series) == len(
        {r[0] for r in rows} | {r[0] for r in v2}
    )


# ---------------------------------------------------------------- Gemini CLI
# gemini-cli packages/core/src/services/chatRecordingService.ts: a metadata line,
# message records written again as they change, ``$set`` and ``$rewindTo`` lines.

#: A count as the agents write it, and the values next to the rule's edges.
EDGE_COUNTS = st.integers(min_value=0, max_value=10**6) | st.sampled_from(
    [0, 10**12, 10**12 + 1, -1, None, 12.0, True, "12"]
)
STAMPS = st.sampled_from(
    [
        "2026-01-01T00:00:01.000Z",
        "2026-01-01T00:00:01.500Z",
        "2026-02-28T23:59:59.999Z",
        "2026-01-01T00:00:01Z",
        "2026-01-01T00:00:01.123456+02:00",
        "not a time",
        1767225600,
        1767225600123,
    ]
)


def maybe(typed: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The field as the agent writes it, now and then any JSON value."""
    return st.one_of(typed, typed, typed, JSON_VALUES)


@st.composite
def keyed(draw: st.DrawFn, fields: dict[str, st.SearchStrategy[Any]]) -> dict[str, Any]:
    """Some of ``fields`` (each present or not), and a text no reader reads."""
    out = {key: draw(value) for key, value in fields.items() if draw(st.booleans())}
    if draw(st.booleans()):
        out["content"] = draw(st.text(max_size=20))
    return out


GEMINI_IDS = st.sampled_from(["m1", "m2", "m3", "m4", "\x00x"])
GEMINI_TOKENS = keyed(dict.fromkeys(gemini._COUNTED, EDGE_COUNTS))


@st.composite
def gemini_line(draw: st.DrawFn) -> dict[str, Any]:
    shape = draw(
        st.sampled_from(["message", "message", "message", "metadata", "$set", "$rewindTo"])
    )
    if shape == "metadata":
        return {"sessionId": "s", "projectHash": "h", "startTime": draw(STAMPS)}
    if shape == "$set":
        return {"$set": draw(maybe(st.fixed_dictionaries({"lastUpdated": STAMPS})))}
    if shape == "$rewindTo":
        return {"$rewindTo": draw(maybe(GEMINI_IDS))}
    out = draw(
        keyed(
            {
                "id": maybe(GEMINI_IDS),
                "timestamp": maybe(STAMPS),
                "model": maybe(st.sampled_from(["gemini-2.5-flash", " gemini-2.5-pro ", ""])),
                "tokens": maybe(GEMINI_TOKENS),
                "sessionId": JSON_VALUES,
            }
        )
    )
    # The type first, as gemini-cli writes it; absent now and then.
    if draw(st.integers(0, 5)):
        kind = draw(maybe(st.sampled_from(["gemini", "gemini", "user", "info", "error"])))
        out = {"type": kind, **out}
    return out


@st.composite
def gemini_typical(draw: st.DrawFn) -> dict[str, Any]:
    """A message record as gemini-cli writes it, every field of its type."""
    out: dict[str, Any] = {
        "id": draw(GEMINI_IDS),
        "timestamp": draw(STAMPS),
        "type": draw(st.sampled_from(["gemini", "user", "info"])),
        "content": draw(st.text(max_size=20)),
    }
    if out["type"] == "gemini":
        out["model"] = "gemini-2.5-flash"
        counts = st.integers(min_value=0, max_value=10**6)
        out["tokens"] = draw(keyed(dict.fromkeys(gemini._COUNTED, counts)))
    return out


# ---------------------------------------------------------------- Qwen Code
# qwen-code packages/core/src/services/chatRecordingService.ts ChatRecord: a tree of
# ``uuid`` / ``parentUuid``, ``usageMetadata`` on assistant records, ``systemPayload``
# on system ones.

QWEN_IDS = st.sampled_from(["u1", "u2", "u3", "u4", "u5"])
QWEN_COUNTS = (
    "promptTokenCount",
    "cachedContentTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
    "totalTokenCount",
)
QWEN_PAYLOADS = st.one_of(
    st.fixed_dictionaries(
        {"info": keyed({"originalTokenCount": EDGE_COUNTS, "newTokenCount": EDGE_COUNTS})}
    ),
    st.fixed_dictionaries({"uiEvent": st.fixed_dictionaries({"event.name": st.text(max_size=5)})}),
)
QWEN_KINDS = ["user", "assistant", "assistant", "tool_result", "system"]
QWEN_SUBTYPES = ["chat_compression", "ui_telemetry", "slash_command", "at_command"]


@st.composite
def qwen_line(draw: st.DrawFn) -> dict[str, Any]:
    return draw(
        keyed(
            {
                "uuid": maybe(QWEN_IDS),
                "parentUuid": maybe(st.none() | QWEN_IDS),
                "sessionId": st.just("s"),
                "timestamp": maybe(STAMPS),
                "type": maybe(st.sampled_from(QWEN_KINDS)),
                "subtype": maybe(st.sampled_from(QWEN_SUBTYPES)),
                "model": maybe(st.sampled_from(["qwen3-coder-plus", " gpt-5 ", ""])),
                "usageMetadata": maybe(keyed(dict.fromkeys(QWEN_COUNTS, EDGE_COUNTS))),
                "systemPayload": maybe(QWEN_PAYLOADS),
            }
        )
    )


@st.composite
def qwen_typical(draw: st.DrawFn) -> dict[str, Any]:
    """A chat record as Qwen Code writes it, every field of its type."""
    kind = draw(st.sampled_from(QWEN_KINDS))
    out: dict[str, Any] = {
        "uuid": draw(QWEN_IDS),
        "parentUuid": draw(st.none() | QWEN_IDS),
        "sessionId": "s",
        "timestamp": draw(STAMPS),
        "type": kind,
        "message": {"role": "user", "parts": [{"text": draw(st.text(max_size=20))}]},
    }
    counts = st.integers(min_value=0, max_value=10**6)
    if kind == "assistant":
        out["model"] = "qwen3-coder-plus"
        out["usageMetadata"] = draw(keyed(dict.fromkeys(QWEN_COUNTS, counts)))
    if kind == "system":
        out["subtype"] = draw(st.sampled_from(QWEN_SUBTYPES))
        out["systemPayload"] = {"info": {"originalTokenCount": draw(counts), "newTokenCount": 1}}
    return out


ODD_LINES = st.sampled_from([b"\n", b"   \n", b"{not json\n", b"[1, 2]\n", b'{"type": "\xff"}\n'])


@st.composite
def session_bytes(
    draw: st.DrawFn, line: st.SearchStrategy[Any], typical: st.SearchStrategy[Any]
) -> bytes:
    """A session file: lines in the agent's shape, odd ones now and then, and lines that
    are blank, not JSON or not UTF-8."""
    lines = draw(
        st.lists(
            st.one_of(
                line.map(lambda x: json.dumps(x).encode() + b"\n"),
                typical.map(lambda x: json.dumps(x).encode() + b"\n"),
                ODD_LINES,
            ),
            max_size=30,
        )
    )
    return b"".join(lines)


# ---------------------------------------------------------------- pi
# pi-mono packages/coding-agent/docs/session.md (version 3): a header, then entries of
# a tree (``id`` / ``parentId``); an assistant message's ``usage`` with pi's own
# ``cost`` beside its counts; a compaction's ``tokensBefore``.

PI_IDS = st.sampled_from(["e1", "e2", "e3", "e4", "e5"])
PI_COUNTS = ("input", "cacheRead", "cacheWrite", "output", "totalTokens")
PI_COSTS = st.fixed_dictionaries(
    {"total": st.sampled_from([0, 0.0123, 2, 1e400, -1, "1", None, True])},
    optional={"input": st.sampled_from([0.001, 0])},
)
PI_KINDS = ["message", "message", "message", "compaction", "model_change", "session", "label"]


@st.composite
def pi_usage(draw: st.DrawFn) -> dict[str, Any]:
    usage = draw(keyed(dict.fromkeys(PI_COUNTS, EDGE_COUNTS)))
    if draw(st.booleans()):
        usage["cost"] = draw(maybe(PI_COSTS))
    return usage


@st.composite
def pi_line(draw: st.DrawFn) -> dict[str, Any]:
    message = keyed(
        {
            "role": maybe(st.sampled_from(["assistant", "assistant", "user", "toolResult"])),
            "model": maybe(st.sampled_from(["claude-sonnet-4-5", "kimi-k2.6", ""])),
            "provider": maybe(st.sampled_from(["anthropic", "openrouter", ""])),
            "usage": maybe(pi_usage()),
        }
    )
    return draw(
        keyed(
            {
                "type": maybe(st.sampled_from(PI_KINDS)),
                "id": maybe(PI_IDS),
                "parentId": maybe(st.none() | PI_IDS),
                "timestamp": maybe(STAMPS),
                "tokensBefore": maybe(EDGE_COUNTS),
                "message": maybe(message),
            }
        )
    )


@st.composite
def pi_typical(draw: st.DrawFn) -> dict[str, Any]:
    """An entry as pi writes it, every field of its type."""
    kind = draw(st.sampled_from(PI_KINDS))
    out: dict[str, Any] = {
        "type": kind,
        "id": draw(PI_IDS),
        "parentId": draw(st.none() | PI_IDS),
        "timestamp": draw(STAMPS),
    }
    if kind == "session":
        return {"type": kind, "version": 3, "id": "s", "timestamp": out["timestamp"], "cwd": "/p"}
    if kind == "compaction":
        out["tokensBefore"] = draw(st.integers(min_value=0, max_value=10**6))
    if kind == "message":
        role = draw(st.sampled_from(["assistant", "user"]))
        out["message"] = {"role": role, "content": [{"type": "text", "text": draw(st.text())}]}
        if role == "assistant":
            counts = st.integers(min_value=0, max_value=10**6)
            usage = draw(keyed(dict.fromkeys(PI_COUNTS, counts)))
            usage["cost"] = {"input": 0.001, "total": draw(st.sampled_from([0.0123, 0, 1]))}
            out["message"].update(provider="anthropic", model="claude-sonnet-4-5", usage=usage)
    return out


# ---------------------------------------------------------------- Droid
# A transcript's lines hold no usage: each is an entry of the ledger by its ``type``
# (agent-sessions' Droid fixtures: ``session_start``, then ``message`` entries).

#: "line" is also the kind of a line of no type; a type not in ASCII is written as a
#: unicode escape (json.dumps).
DROID_KINDS = ["session_start", "message", "message", "todo_state", "line", "r\u00e9sum\u00e9"]


@st.composite
def droid_line(draw: st.DrawFn) -> dict[str, Any]:
    """A transcript line, its ``type`` now and then any JSON value or missing, and a
    text containing what a ``type`` looks like."""
    out: dict[str, Any] = {
        "type": draw(maybe(st.sampled_from(DROID_KINDS))),
        "id": draw(st.sampled_from(["m1", "m2"])),
        "message": {"role": "user", "content": draw(st.sampled_from(['"type":"x"', 't"y']))},
    }
    if draw(st.booleans()):
        out = {"message": out}  # a type nested only
    return odd(draw, out)


def droid_typical() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda kind, n: {"type": kind, "id": f"m{n}", "message": {"role": "user", "content": "x"}},
        st.sampled_from(DROID_KINDS),
        st.integers(0, 9),
    )


def droid_oracle(raw: bytes) -> tuple[int, int, tuple[int, ...], dict[str, int]]:
    """The transcript's ledger by the rule the reader had line by line: (lines, blank,
    malformed, entries) from each line decoded in full, its kind its ``type`` when a
    text, else a line of no kind."""
    kinds: dict[str, int] = {}
    blank, malformed = 0, []
    lines = io.BytesIO(raw).readlines()
    for number, line in enumerate(lines, 1):
        value = reader.decode_line(line)
        if value is reader.BLANK:
            blank += 1
        elif isinstance(value, reader.Malformed):
            malformed.append(number)
        else:
            assert isinstance(value, dict)
            kind = value.get("type")
            k = f"transcript {kind}" if isinstance(kind, str) else "transcript line"
            k = tally.label(k)
            kinds[k] = kinds.get(k, 0) + 1
    return len(lines), blank, tuple(malformed), kinds


_DROID_SETTINGS = b'{"model": "claude-sonnet-4.5", "tokenUsage": {"inputTokens": 1}}'


@pytest.mark.parametrize("pure", [True, False])
@_SETTINGS
@given(data=st.data(), batch=st.sampled_from([1, 2, 5, 512]))
def test_a_droid_transcript_is_counted_by_type_as_each_line_decoded_in_full(
    pure: bool, data: st.DataObject, batch: int
) -> None:
    raw = data.draw(session_bytes(droid_line(), droid_typical()))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BATCH_LINES", batch)
        if pure:
            mp.setattr(tally, "record_batches", lambda shape: None)
        else:  # from the first line on, as past the import's threshold
            mp.setattr(tally, "compiled_from", lambda line, size=0: True)
        log = droid.read_droid(
            [("s.settings.json", io.BytesIO(_DROID_SETTINGS)), ("s.jsonl", io.BytesIO(raw))]
        )
    ledger = log.ledger[1]
    lines, blank, malformed, kinds = droid_oracle(raw)
    assert (ledger.lines, ledger.blank, ledger.malformed) == (lines, blank, malformed)
    assert ledger.entries == tuple(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    assert ledger.accounted == ledger.lines


#: The line readers read through Tally.record_batches: (format, session file name, the
#: lines drawn, the lines in the agent's ordinary shape).
LINE_READERS = {
    "gemini-cli": ("chats/session-2026-01-01T00-00-s.jsonl", gemini_line(), gemini_typical()),
    "qwen-code": ("chats/s.jsonl", qwen_line(), qwen_typical()),
    "pi": ("sessions/--p--/2026-01-01T00-00-00-000Z_s.jsonl", pi_line(), pi_typical()),
}


@needs_decoder
@pytest.mark.parametrize("fmt", sorted(LINE_READERS))
@_SETTINGS
@given(data=st.data(), batch=st.sampled_from([1, 2, 5, 512]))
def test_a_session_reads_alike_through_either_decoding(
    fmt: str, data: st.DataObject, batch: int
) -> None:
    name, line, typical = LINE_READERS[fmt]
    raw = data.draw(session_bytes(line, typical))
    asked: list[Shape] = []

    def counted(shape: Shape) -> Any:
        asked.append(shape)
        return reader.record_batches(shape)

    def read() -> object:
        return read_session([(name, io.BytesIO(raw))], fmt, require=False)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BATCH_LINES", batch)
        mp.setattr(tally, "record_batches", lambda shape: None)
        plain = read()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reader, "BATCH_LINES", batch)
        # From the first line on (not past the import's threshold): every line through it.
        mp.setattr(tally, "compiled_from", lambda line, size=0: True)
        mp.setattr(tally, "record_batches", counted)
        fast = read()
    assert fast == plain
    assert asked or not raw


# ---------------------------------------------------------------- every reader's records

#: Each reader's record shape, with the lines (or messages) drawn in its real shape.
SHAPES: dict[str, tuple[Shape, st.SearchStrategy[dict[str, Any]]]] = {
    "kimi-cli": (kimi.LINE, kimi_line()),
    "opencode": (opencode.MESSAGE, opencode_message()),
    "gemini-cli": (gemini.LINE, gemini_line()),
    "gemini-cli (its own shape)": (gemini.LINE, gemini_typical()),
    "qwen-code": (qwen.LINE, qwen_line()),
    "qwen-code (its own shape)": (qwen.LINE, qwen_typical()),
    "pi": (pi.LINE, pi_line()),
    "pi (its own shape)": (pi.LINE, pi_typical()),
    "droid": (droid.LINE, droid_line()),
}


@needs_decoder
@pytest.mark.parametrize("agent", sorted(SHAPES))
@_SETTINGS
@given(data=st.data())
def test_a_line_is_the_same_record_either_way(agent: str, data: st.DataObject) -> None:
    shape, lines = SHAPES[agent]
    raw = json.dumps(data.draw(lines)).encode()
    full = reader.decode_line(raw)
    assert isinstance(full, dict)
    # The standard library's record, by the stated rules.
    assert canon(fields_of(record_of(full, shape), shape)) == canon(oracle(full, shape))
    struct = compiled.decode_batch(compiled.record_decoder(shape), [raw])
    assert struct is not None
    if not marked(full):  # msgspec refuses NaN and Infinity; read_number marks them
        # Refused (then decoded in full, the record below) exactly where it does not fit.
        assert (struct[0] is None) == (not fits(full, shape))
    if struct[0] is not None:
        expected = canon(fields_of(record_of(full, shape), shape))
        assert canon(fields_of(struct[0], shape)) == expected


# ---------------------------------------------------------------- what both share
# The properties above hold the two decodings alike, so they cannot see a rule both
# would share: the shapes' own rules, pinned.


def test_a_count_is_read_by_the_one_count_rule() -> None:
    tokens = record_of({"tokens": {"input": None, "output": 3}}, gemini.LINE).tokens
    assert (tokens.input, tokens.output, tokens.total) == (0, 3, 0)
    usage = record_of({"usageMetadata": {"promptTokenCount": None}}, qwen.LINE).usage
    assert usage == (0, 0, 0, 0, 0, 0)  # prompt, cached, output, thoughts, tool, total
    wrong = record_of({"usageMetadata": {"candidatesTokenCount": -1}}, qwen.LINE).usage
    assert isinstance(wrong, Problem)
    assert wrong.path == "usageMetadata.candidatesTokenCount"  # as written in the log
    bad = record_of({"tokens": {"cached": -1}}, gemini.LINE).tokens
    assert isinstance(bad, Problem)
    assert bad.path == "tokens.cached"
    assert record_of({"tokens": [1]}, gemini.LINE).tokens == Problem.of(
        "tokens", [1], "log-line-counts"
    )
    assert record_of({"tokens": None}, gemini.LINE).tokens is None


def test_an_object_of_other_values_beside_counts_is_a_record_or_none() -> None:
    """pi's ``usage.cost`` beside its counts: a record where it is an object, None
    where it is null or no object, read after the counts (a bad count names itself)."""

    def usage(value: dict[str, Any]) -> Any:
        return record_of({"message": {"usage": value}}, pi.LINE).message.usage

    read = usage({"input": 3, "cost": {"total": Decimal("0.5"), "input": 1}})
    assert (read.input, read.output, read.cost.total) == (3, 0, Decimal("0.5"))
    assert usage({"input": 3, "cost": 5}).cost is None
    assert usage({"input": 3, "cost": None}).cost is None
    assert usage({"input": 3}).cost is None
    bad = usage({"input": -1, "cost": {"total": 1}})
    assert bad == Problem.of(
        "message.usage.input", -1, "log-line-count", high=bound_text(MAX_TOKENS)
    )
    assert usage([]) == Problem.of("message.usage", [], "log-line-counts")


def test_presence_alone_is_kept_apart_from_null_and_keys_are_read_as_written() -> None:
    record = record_of({"$rewindTo": None, "sessionId": None, "type": 5}, gemini.LINE)
    assert record.rewind is None
    assert record.sessionId is None
    assert record.set is records.ABSENT
    assert record.type is None  # a text that is not one
    assert record_of({"$set": {}}, gemini.LINE).set == {}


def _qwen(lines: list[dict[str, Any]]) -> Any:
    data = b"".join(json.dumps(x).encode() + b"\n" for x in lines)
    return read_session([("chats/s.jsonl", io.BytesIO(data))], "qwen-code", require=False)


def test_a_qwen_record_whose_parent_is_neither_text_nor_null_is_no_tree_entry() -> None:
    """u2 then u3 answer beside each other, u3 last: u2, a tree entry, is on another
    branch (abandoned); not one (no text for a parent or for itself), on every branch."""
    root = {"uuid": "u1", "parentUuid": None, "type": "user"}
    last = {"uuid": "u3", "parentUuid": "u1", "type": "assistant"}
    last["usageMetadata"] = {"promptTokenCount": 20, "candidatesTokenCount": 1}
    usage = {"promptTokenCount": 10, "candidatesTokenCount": 1}
    for node, parent, entry in (
        ("u2", "u1", True),
        ("u2", None, True),
        ("u2", 5, False),
        ("u2", [], False),
        (7, "u1", False),
    ):
        line = {"uuid": node, "parentUuid": parent, "type": "assistant", "usageMetadata": usage}
        (main,) = _qwen([root, line, last]).series
        on_branch = [r.context for r in main.requests]
        assert on_branch == ([20] if entry else [10, 20]), (node, parent)
        assert [r.context for r in main.abandoned] == ([10] if entry else [])


@pytest.mark.parametrize("pure", [True, False])
def test_a_pi_batch_lists_its_malformed_lines_in_line_order(pure: bool) -> None:
    """The decoder lists a line that is not JSON as it reads the batch, before the
    reader sees the batch's records and finds a bad count: both are listed in line
    order, as a line-by-line read lists them."""
    head = {"type": "session", "version": 3, "id": "s", "cwd": "/p"}
    usage = {"input": 1, "output": 1}
    lines = [json.dumps(head).encode()]
    for n, count in enumerate((1, -1, 2, 1.5, 3)):
        message = {"role": "assistant", "usage": {**usage, "cacheRead": count}}
        lines.append(json.dumps({"type": "message", "id": f"e{n}", "message": message}).encode())
    lines[3:3] = [b"{torn"]  # line 4, between the two bad counts (lines 3 and 6)
    data = b"\n".join(lines) + b"\n"
    with pytest.MonkeyPatch.context() as mp:
        if pure:
            mp.setattr(tally, "record_batches", lambda shape: None)
        else:
            mp.setattr(tally, "compiled_from", lambda line, size=0: True)
        log = read_session([("s.jsonl", io.BytesIO(data))], "pi")
    assert log.ledger[0].malformed == (3, 4, 6)
    assert [p.path for p in log.skipped] == [
        "line 3: message.usage.cacheRead",
        "line 4",
        "line 6: message.usage.cacheRead",
    ]


@pytest.mark.parametrize(
    ("shape", "why"),
    [
        ({"keys": ("a", "a")}, "named twice"),
        ({"keys": ("a",), "texts": frozenset({"b"})}, "not among its keys"),
        ({"keys": ("a",), "keyed": (("b", "$b"),)}, "not among its keys"),
        ({"keys": ("a-b",)}, "no identifier"),
        ({"keys": ("class",)}, "no identifier"),
        ({"keys": ("a",), "texts": frozenset({"a"}), "told": frozenset({"a"})}, "text"),
        ({"keys": ("a",), "counts": True, "texts": frozenset({"a"})}, "counts only"),
        (
            {"keys": ("a",), "counts": True, "told": frozenset({"a"})},
            "counts only",
        ),
        (
            {
                "keys": ("a", "b"),
                "counts": True,
                "nested": (("a", Shape("Inner", ("c",), counts=True)),),
            },
            "nested counts after the counts",
        ),
    ],
)
def test_a_shape_written_wrong_is_refused_where_it_is_written(
    shape: dict[str, Any], why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        Shape("Wrong", **shape)
