"""What tests/test_log_reader.py and its properties (tests/property/) share."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, ScenarioError
from budgetcore.inputs.numbers import read_number
from budgetcore.replay.logs import claude, reader
from budgetcore.replay.logs.codex import _read
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import (
    BLANK,
    Malformed,
    numbered_batches,
    numbered_lines,
)

try:
    from budgetcore.replay.logs import compiled
except ImportError:  # msgspec is not installed: only the standard library's paths
    compiled = None  # type: ignore[assignment]
CODEX_DECODER = None if compiled is None else compiled.codex_decoder()


CLAUDE_DECODER = None if compiled is None else compiled.claude_decoder()


_oracle_decode = json.JSONDecoder(parse_float=read_number, parse_constant=NonFinite).decode


def oracle(raw: bytes) -> object:
    """The reader's answer for one line before the fast paths (its code, verbatim)."""
    if raw[:1] != b"{" and not raw.strip():
        return BLANK
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Malformed("log-line-not-utf8", byte=exc.start + 1)
    try:
        obj = _oracle_decode(text)
    except RecursionError:
        return Malformed("log-line-too-deep")
    except ValueError:
        return Malformed("log-line-not-json")
    if not isinstance(obj, dict):
        return Malformed("log-line-not-object")
    return obj


_KEYS = st.sampled_from(
    ["type", "timestamp", "payload", "info", "rate_limits", "input_tokens", "model", "x", ""]
)


_ODD_PIECES = [
    '"',
    "\\",
    "/",
    "a",
    "type",
    "\u2028",
    "\u2029",
    "\x85",
    "\x00",
    "\x1f",
    "é",
    "😀",
    "\t",
]


ODD_TEXT = st.lists(st.sampled_from(_ODD_PIECES), max_size=8).map("".join)


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**15), 10**15),
    st.integers(10**12 - 2, 10**12 + 2),
    st.sampled_from([Decimal("5.0"), Decimal("1E+3"), Decimal("-0.5"), Decimal("1E-7")]),
    ODD_TEXT,
    st.text(max_size=6),
)


_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.one_of(_KEYS, ODD_TEXT), inner, max_size=3)
    ),
    max_leaves=12,
)


def _text_of(value: object, compact: bool, ascii_only: bool) -> str:
    """JSON text of ``value``; a Decimal is written as the number it is."""
    comma, colon = (",", ":") if compact else (", ", ": ")
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        items = (
            json.dumps(k, ensure_ascii=ascii_only) + colon + _text_of(v, compact, ascii_only)
            for k, v in value.items()
        )
        return "{" + comma.join(items) + "}"
    if isinstance(value, list):
        return "[" + comma.join(_text_of(v, compact, ascii_only) for v in value) + "]"
    return json.dumps(value, ensure_ascii=ascii_only)


def stamp_of(ms: int) -> str:
    when = datetime.fromtimestamp(ms // 1000, UTC)
    return f"{when:%Y-%m-%dT%H:%M:%S}.{ms % 1000:03d}Z"


_COUNTS = st.integers(0, 9).flatmap(  # mostly what Codex writes, at times past 10^12
    lambda k: st.integers(10**12 - 2, 10**13) if k == 0 else st.integers(0, 99_999)
)


_USAGE_KEYS = (
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
)


_MEMBER_KEYS = st.one_of(
    st.sampled_from(["role", "content", "name", "arguments", "call_id", "id", "summary"]),
    _KEYS,
    ODD_TEXT,
)


_SHALLOW = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.one_of(_KEYS, ODD_TEXT), inner, max_size=3)
    ),
    max_leaves=5,
)


#: Times within a few seconds: a fork's copied burst (lines under a second apart) ends.
_BURST = (1_700_000_000_000, 1_700_000_004_000)


_ZERO = dict.fromkeys(_USAGE_KEYS, 0)


_SOME = {**_ZERO, "input_tokens": 900, "output_tokens": 40, "total_tokens": 940}


_ROLLOUT_LINES: list[dict[str, Any]] = [
    {"type": "session_meta", "payload": {"id": "s1"}},
    {"type": "session_meta", "payload": {"id": "s1", "forked_from_id": "s0"}},
    {"type": "session_meta", "payload": {"id": "s2", "source": {"subagent": "review"}}},
    {"type": "session_meta", "payload": {"id": "s0"}},
    {"type": "turn_context", "payload": {"model": "gpt-5"}},
    {"type": "turn_context", "payload": {"model": "o3"}},
    {"type": "turn_context", "payload": {"model": ""}},
    {"type": "turn_context", "payload": {"model": 5}},
    {"type": "compacted", "payload": {"message": "summary"}},
    {"type": "event_msg", "payload": {"type": "context_compacted"}},
    {"type": "event_msg", "payload": {"type": "task_started", "model_context_window": 400_000}},
    {
        "type": "event_msg",
        "payload": {"type": "thread_settings_applied", "thread_settings": {"model": "gpt-5.1"}},
    },
    {"type": "event_msg", "payload": {"type": "agent_message", "message": "hi"}},
    {"type": "event_msg", "payload": {"type": "token_count", "info": None}},
    {
        "type": "event_msg",
        "payload": {
            "type": "token_count",
            "info": {"last_token_usage": _ZERO, "total_token_usage": _ZERO},
        },
    },
    {"type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": _SOME}}},
    {"type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": _SOME}}},
    {
        "type": "event_msg",
        "payload": {
            "type": "token_count",
            "info": {"last_token_usage": _SOME, "total_token_usage": _SOME, "model": "gpt-5-codex"},
        },
    },
    {
        "type": "event_msg",
        "payload": {
            "type": "token_count",
            "info": {
                "last_token_usage": _SOME,
                "total_token_usage": _SOME,
                "model_name": "o4-mini",
                "model_context_window": 0,
            },
        },
    },
    {
        "type": "event_msg",
        "payload": {
            "type": "token_count",
            "info": {
                "last_token_usage": _SOME,
                "total_token_usage": _SOME,
                "model_context_window": -5,
            },
        },
    },
    {"type": "inter_agent_communication", "payload": {"type": "x"}},
    {"type": "response_item", "payload": None},
]


@st.composite
def codex_like(draw: st.DrawFn) -> bytes:
    """A Codex rollout line as Codex writes it most of the time (so the shapes take
    many), else nearly: an odd timestamp, big counts, deep or odd values, white space,
    a spoilt text, a byte that is not UTF-8."""
    if draw(st.integers(0, 3)):
        span = draw(st.sampled_from([(1_600_000_000_000, 1_900_000_000_000), _BURST]))
        stamp = stamp_of(draw(st.integers(*span)))
    else:
        odd = ["2026-01-20T09:00:05Z", "", 'x\\"y', "2026-01-20T09:00:05.1+01:00"]
        stamp = draw(st.one_of(st.sampled_from(odd), ODD_TEXT))
    usage = st.tuples(  # in Codex's order (fixed_dictionaries may shuffle)
        _COUNTS, st.integers(0, 9_999), st.integers(0, 9_999), st.integers(0, 99), _COUNTS
    ).map(lambda v: dict(zip(_USAGE_KEYS, v, strict=True)))
    kind = draw(st.sampled_from(["token", "token", "item", "item", "other", "rollout"]))
    if kind == "rollout":  # the lines that steer the reader: a session, a model, a fork
        head = {"timestamp": stamp, **draw(st.sampled_from(_ROLLOUT_LINES))}
    elif kind == "token":
        info: Any = {
            "total_token_usage": draw(usage),
            "last_token_usage": draw(usage),
            "model_context_window": draw(_COUNTS),
        }
        limits = draw(_SHALLOW if draw(st.integers(0, 3)) else _VALUES)
        payload: Any = {"type": "token_count", "info": info, "rate_limits": limits}
        head = {"timestamp": stamp, "type": "event_msg", "payload": payload}
    elif kind == "item":
        sub = st.sampled_from(["message", "function_call", "reasoning", 'ty"pe'])
        payload = {"type": draw(sub)}
        values = _SHALLOW if draw(st.integers(0, 3)) else _VALUES
        payload.update(draw(st.dictionaries(_MEMBER_KEYS, values, max_size=4)))
        head = {"timestamp": stamp, "type": "response_item", "payload": payload}
    else:
        head = draw(st.dictionaries(_KEYS, _VALUES, max_size=4))
    text = _text_of(head, compact=draw(st.integers(0, 9)) > 0, ascii_only=draw(st.booleans()))
    if draw(st.integers(0, 4)) < 2:
        text = draw(_spoilt(text))
    end = draw(st.sampled_from(["\n", "\n", "\n", "", "\r\n", " \n", "\n\n"]))
    raw = (text + end).encode("utf-8")
    if draw(st.integers(0, 19)) == 0:  # a byte that is not UTF-8
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + b"\xff" + raw[at:]
    return raw


@st.composite
def _spoilt_text(draw: st.DrawFn, text: str) -> str:
    how = draw(st.integers(0, 9))
    if how == 0 and text:  # cut short: a half-written line
        return text[: draw(st.integers(0, len(text) - 1))]
    if how == 1 and text:  # a character dropped
        at = draw(st.integers(0, len(text) - 1))
        return text[:at] + text[at + 1 :]
    if how == 2 and text:  # a character doubled
        at = draw(st.integers(0, len(text) - 1))
        return text[:at] + text[at] + text[at:]
    if how == 3:  # a key again at the end (the last copy wins in JSON)
        key = draw(st.sampled_from(["type", "payload", "timestamp", "info"]))
        return text[:-1] + f',"{key}":' + json.dumps(draw(_SCALARS), default=str) + "}"
    if how == 4 and '"token_count"' in text:  # a key again inside the payload
        return text.replace('"rate_limits":', '"info":null,"rate_limits":', 1)
    if how in (6, 7) and text.endswith("}}"):  # a key again at the payload's end
        key = '"type"' if how == 6 else '"t\\u0079pe"'  # the same key, escaped
        return text[:-2] + f',{key}:"again"}}}}'
    if how == 8 and (spots := [m.end() for m in re.finditer(r'":[0-9]', text)]):
        at = draw(st.sampled_from(spots)) - 1  # a leading zero: 012 is not JSON
        return text[:at] + "0" + text[at:]
    if how == 5:  # a character inserted
        at = draw(st.integers(0, len(text)))
        return (
            text[:at] + draw(st.sampled_from(['"', "\\", "}", ",", " ", "0", "\x01"])) + text[at:]
        )
    return text


def _spoilt(text: str) -> st.SearchStrategy[str]:
    return _spoilt_text(text)


def full_response_item(raw: bytes) -> tuple[str, str] | None:
    """What the full decode makes of a response_item line: (timestamp, payload type),
    when the line is one and both are strings; None otherwise."""
    obj = oracle(raw)
    if not isinstance(obj, dict) or obj.get("type") != "response_item":
        return None
    payload = obj.get("payload")
    if not isinstance(payload, dict):
        return None
    stamp, sub = obj.get("timestamp"), payload.get("type")
    if not isinstance(stamp, str) or not isinstance(sub, str):
        return None
    return stamp, sub


def full_token_count(raw: bytes) -> tuple[str, tuple[int, ...], tuple[int, ...], object] | None:
    obj = oracle(raw)
    if not isinstance(obj, dict) or obj.get("type") != "event_msg":
        return None
    payload = obj.get("payload")
    if not isinstance(payload, dict) or payload.get("type") != "token_count":
        return None
    info = payload.get("info")
    stamp = obj.get("timestamp")
    if not isinstance(info, dict) or not isinstance(stamp, str):
        return None
    if info.get("model") is not None or info.get("model_name") is not None:
        return None  # the shape has no model: it must not claim this line

    def counts(raw_usage: object) -> tuple[int, ...] | None:
        if not isinstance(raw_usage, dict):
            return None
        keys = (
            "input_tokens",
            "cached_input_tokens",
            "output_tokens",
            "reasoning_output_tokens",
            "cache_write_input_tokens",
        )
        values = [raw_usage.get(k, 0) for k in keys]
        if not all(type(v) is int and 0 <= v <= 10**12 for v in values):
            return None
        return tuple(values)

    last, total = counts(info.get("last_token_usage")), counts(info.get("total_token_usage"))
    if last is None or total is None:
        return None
    return stamp, last, total, info.get("model_context_window")


def one_by_one(data: bytes) -> Iterator[tuple[int, list[bytes]]]:
    """The oracle's lines: numbered_lines, each a batch of its own."""
    return ((n, [raw]) for n, raw in numbered_lines(io.BytesIO(data)))


def rollout_three_ways(name: str, data: bytes) -> ParsedLog:
    """The rollout read with the shapes, with the compiled decoder (when installed) and
    decoded in full line by line: the three must agree."""
    shaped = _read(name, numbered_batches(io.BytesIO(data)))
    off = _read(name, one_by_one(data), shaped=False)
    assert shaped == off
    if CODEX_DECODER is not None:
        assert _read(name, numbered_batches(io.BytesIO(data)), decoder=CODEX_DECODER) == off
    return off


@contextmanager
def small_limits(line: int, piece: int, batch: int, size: int | None) -> Iterator[None]:
    """The reader's limits made small, so that a few bytes cross them."""
    with ExitStack() as stack:
        stack.enter_context(patch.object(reader, "MAX_LINE_BYTES", line))
        stack.enter_context(patch.object(reader, "PIECE_BYTES", piece))
        stack.enter_context(patch.object(reader, "BATCH_LINES", batch))
        if size is not None:
            stack.enter_context(patch.object(reader, "limit_of", lambda _what: size))
        yield


needs_compiled = pytest.mark.skipif(
    compiled is None or CODEX_DECODER is None, reason="the compiled decoder is not installed"
)


_UUIDS = st.sampled_from(["u1", "u2", "u3", "u4", "u5"])


_COUNT_VALUES = st.one_of(
    st.integers(0, 99_999),
    st.integers(0, 99_999),
    st.sampled_from([None, True, -1, 10**12, 10**12 + 1, 10**30, "5"]),
    st.sampled_from([Decimal("12.0"), Decimal("1E+3"), Decimal("0.5")]),
)


@st.composite
def claude_like(draw: st.DrawFn) -> bytes:
    """A Claude Code line as Claude Code writes it most of the time, else nearly:
    counts as floats, out of range or null, ids and links of odd types, a logged cost,
    a Codex key, a compaction, tool results in every form, odd values beside."""
    obj: dict[str, Any] = {}
    kind = draw(
        st.sampled_from(
            ["user", "assistant", "assistant", "progress", "system", "summary", None, 5, "x"]
        )
    )
    if kind is not None:
        obj["type"] = kind
    if draw(st.integers(0, 5)):
        obj["uuid"] = draw(st.one_of(_UUIDS, st.sampled_from([None, 7])))
    if draw(st.integers(0, 3)):
        key = "parentUuid" if draw(st.integers(0, 4)) else "logicalParentUuid"
        obj[key] = draw(st.one_of(_UUIDS, st.sampled_from([None, 7, "gone"])))
    if draw(st.integers(0, 5)):
        obj["timestamp"] = stamp_of(draw(st.integers(1_700_000_000_000, 1_700_100_000_000)))
    elif draw(st.booleans()):
        obj["timestamp"] = draw(st.one_of(ODD_TEXT, st.integers(0, 10**14), st.none()))
    if draw(st.integers(0, 5)) == 0:
        obj["isSidechain"] = draw(st.sampled_from([True, False, "yes", None]))
    if draw(st.integers(0, 5)) == 0:
        obj["agentId"] = draw(st.sampled_from(["a1", "", 5, None]))
    if draw(st.integers(0, 3)) == 0:
        obj["subtype"] = draw(st.sampled_from(["compact_boundary", "x", "", 5, None]))
    if kind == "progress" or draw(st.integers(0, 9)) == 0:
        obj["data"] = draw(st.sampled_from([{"type": "hook_progress"}, {"type": 3}, "x", None]))
    if kind == "system" and obj.get("subtype") == "compact_boundary":
        obj["compactMetadata"] = {"trigger": "auto", "preTokens": draw(_COUNT_VALUES)}
    if draw(st.integers(0, 5)):
        usage: dict[str, Any] = {
            k: draw(_COUNT_VALUES)
            for k in (
                "input_tokens",
                "cache_creation_input_tokens",
                "cache_read_input_tokens",
                "output_tokens",
            )
            if draw(st.integers(0, 7))
        }
        if draw(st.booleans()):
            usage["cache_creation"] = draw(
                st.one_of(
                    st.fixed_dictionaries(
                        {
                            "ephemeral_5m_input_tokens": _COUNT_VALUES,
                            "ephemeral_1h_input_tokens": _COUNT_VALUES,
                        }
                    ),
                    st.sampled_from([None, 5, {}]),
                )
            )
        usage["service_tier"] = "standard"
        part = st.one_of(
            st.fixed_dictionaries({"type": st.just("text"), "text": ODD_TEXT}),
            st.sampled_from([{"type": "image"}, {"text": 5}, "x"]),
        )
        block = st.one_of(
            st.fixed_dictionaries(
                {
                    "type": st.just("tool_result"),
                    "content": st.one_of(ODD_TEXT, st.lists(part, max_size=3), st.none()),
                }
            ),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["text", "thinking"]), "text": ODD_TEXT}
            ),
            st.sampled_from([{"type": "tool_use", "input": {"a": [1, {"b": None}]}}, "x", 5]),
        )
        message: Any = {
            "id": draw(st.sampled_from(["m1", "m2", "m3", 5, None])),
            "model": draw(st.sampled_from(["claude-sonnet-4-5", "<synthetic>", 5, None])),
            "content": draw(st.one_of(ODD_TEXT, st.lists(block, max_size=3))),
        }
        if kind != "user" or draw(st.integers(0, 5)) == 0:
            message["usage"] = usage if draw(st.integers(0, 9)) else draw(_SCALARS)
        obj["message"] = message if draw(st.integers(0, 9)) else draw(_SCALARS)
    if draw(st.integers(0, 3)) == 0:
        obj["requestId"] = draw(st.sampled_from(["r1", "r2", 5, None]))
    if draw(st.integers(0, 9)) == 0:
        obj["costUSD"] = draw(st.sampled_from([Decimal("0.25"), 3, None, "x"]))
    if draw(st.integers(0, 14)) == 0:
        obj[draw(st.sampled_from(["payload", "record_type", "instructions"]))] = None
    obj.update(draw(st.dictionaries(st.one_of(_KEYS, ODD_TEXT), _VALUES, max_size=2)))
    text = _text_of(obj, compact=draw(st.integers(0, 9)) > 0, ascii_only=draw(st.booleans()))
    if draw(st.integers(0, 4)) == 0:
        text = draw(_spoilt(text))
    end = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", " \n", "\n\n"]))
    raw = (text + end).encode("utf-8")
    if draw(st.integers(0, 29)) == 0:  # a byte that is not UTF-8
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + b"\xff" + raw[at:]
    return raw


def claude_three_ways(files: list[tuple[str, bytes]]) -> ParsedLog:
    """A session read with the compiled decoder (when installed), with the standard
    library's in batches, and line by line: the three must agree."""

    def read(decoder: Any, batched: bool) -> object:
        session = claude._Reader()
        try:
            for i, (name, data) in enumerate(files):
                lines = numbered_batches(io.BytesIO(data)) if batched else one_by_one(data)
                session.read(name, lines, None if i == 0 else "a1", decoder)
            return session.session(files[0][0])
        except ScenarioError as exc:
            return str(exc)

    plain = read(None, False)
    assert read(None, True) == plain
    if CLAUDE_DECODER is not None:
        assert read(CLAUDE_DECODER, True) == plain
    return plain  # type: ignore[return-value]
