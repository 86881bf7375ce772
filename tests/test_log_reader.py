"""The log reader's fast paths give the full decode's answer on every line
(docs/replay.md, "Speed").

The oracle is the standard library's own ``JSONDecoder.decode`` with the reader's number
rules, as the reader called it before it called the scanner directly. Lines are
generated as JSON text and then spoilt: cut short (a half-written line), a character
dropped or doubled, bytes that are not UTF-8, keys repeated, quotes and backslashes,
U+2028 and friends, key names inside strings, nested objects holding the same key names.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, ScenarioError
from budgetcore.inputs.numbers import read_number
from budgetcore.replay.logs import _sniff, claude, progress, reader, shapes
from budgetcore.replay.logs.codex import _read
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import (
    BLANK,
    LineSource,
    Malformed,
    decode_line,
    millis,
    millis_of,
    numbered_batches,
    numbered_lines,
)
from tests.helpers import spied_stream

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
        return Malformed(
            f"is not UTF-8 text (byte {exc.start + 1} of the line)",
            "log-line-not-utf8",
            byte=exc.start + 1,
        )
    try:
        obj = _oracle_decode(text)
    except RecursionError:
        return Malformed("is nested too deeply", "log-line-too-deep")
    except ValueError:
        return Malformed("is not valid JSON", "log-line-not-json")
    if not isinstance(obj, dict):
        return Malformed("is not a JSON object", "log-line-not-object")
    return obj


def canon(value: object) -> object:
    """A value with its types spelt out (1, True, 1.0 and Decimal 1 all differ)."""
    if value is BLANK:
        return ("blank",)
    if isinstance(value, Malformed):
        return ("malformed", value.problem)
    if isinstance(value, dict):
        return ("dict", [(k, canon(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [canon(v) for v in value])
    if isinstance(value, NonFinite):
        return ("nonfinite", value.text)
    if isinstance(value, Decimal):
        return ("decimal", str(value))
    return (type(value).__name__, value)


# ------------------------------------------------------------------ generated lines

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
_ODD_TEXT = st.lists(st.sampled_from(_ODD_PIECES), max_size=8).map("".join)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**15), 10**15),
    st.integers(10**12 - 2, 10**12 + 2),
    st.sampled_from([Decimal("5.0"), Decimal("1E+3"), Decimal("-0.5"), Decimal("1E-7")]),
    _ODD_TEXT,
    st.text(max_size=6),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.one_of(_KEYS, _ODD_TEXT), inner, max_size=3)
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


def _stamp_of(ms: int) -> str:
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
    _ODD_TEXT,
)
_SHALLOW = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.one_of(_KEYS, _ODD_TEXT), inner, max_size=3)
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
        stamp = _stamp_of(draw(st.integers(*span)))
    else:
        odd = ["2026-01-20T09:00:05Z", "", 'x\\"y', "2026-01-20T09:00:05.1+01:00"]
        stamp = draw(st.one_of(st.sampled_from(odd), _ODD_TEXT))
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


# ------------------------------------------------------------------ the properties

_SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_SETTINGS
@given(codex_like())
def test_every_line_decodes_to_what_the_standard_decoder_gives(raw: bytes) -> None:
    assert canon(decode_line(raw)) == canon(oracle(raw))


@_SETTINGS
@given(st.binary(max_size=40).map(lambda b: b"{" + b))
def test_arbitrary_bytes_after_a_brace_decode_as_the_standard_decoder_says(raw: bytes) -> None:
    assert canon(decode_line(raw)) == canon(oracle(raw))


def _full_response_item(raw: bytes) -> tuple[str, str] | None:
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


def _full_token_count(raw: bytes) -> tuple[str, tuple[int, ...], tuple[int, ...], object] | None:
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


@_SETTINGS
@given(codex_like())
def test_a_response_item_shape_reads_what_the_full_decode_reads(raw: bytes) -> None:
    fast = shapes.response_item(raw)
    if fast is not None:
        assert fast == _full_response_item(raw)
        assert millis(fast[0]) == millis(_full_response_item(raw)[0])  # type: ignore[index]


@_SETTINGS
@given(codex_like())
def test_a_token_count_shape_reads_what_the_full_decode_reads(raw: bytes) -> None:
    fast = shapes.token_count(raw)
    if fast is not None:
        assert fast == _full_token_count(raw)


def test_the_generated_lines_give_the_shapes_lines_to_take() -> None:
    """The properties above are not vacuous: their lines include ones the shapes take."""
    assert find(codex_like(), lambda raw: shapes.token_count(raw) is not None)
    assert find(codex_like(), lambda raw: shapes.response_item(raw) is not None)


def test_the_shapes_take_the_lines_codex_writes() -> None:
    """Not vacuous: the properties above see the shapes accept lines, and the bench's
    lines (scripts/make_bench_logs.py) are taken by them."""
    stamp = '{"timestamp":"2026-01-01T00:00:11.987Z",'
    usage = (
        '{"input_tokens":12000,"cached_input_tokens":10022,"output_tokens":366,'
        '"reasoning_output_tokens":342,"total_tokens":12366}'
    )
    token = (
        stamp + '"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":'
        + usage + ',"last_token_usage":' + usage + ',"model_context_window":272000},'
        '"rate_limits":{"primary":{"used_percent":5.0,"window_minutes":300,"resets_at":1759662000},'
        '"credits":null,"plan_type":null}}}\n'
    ).encode()  # fmt: skip
    item = (
        stamp + '"type":"response_item","payload":{"type":"message","role":"user",'
        '"content":[{"type":"input_text","text":"say \\"hi\\"\\n\\u00e9 \u2028 é"}]}}\n'
    ).encode()
    assert shapes.token_count(token) == _full_token_count(token) is not None
    assert shapes.response_item(item) == _full_response_item(item) == (stamp[14:38], "message")
    for cut in range(len(item) - 2):  # every half-written line is left to the decoder
        assert shapes.response_item(item[:cut]) is None
        assert shapes.token_count(token[:cut]) is None


@st.composite
def codex_file(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(codex_like(), max_size=12))
    # Repeats (the same event again, as rate limits arrive) and blank lines between.
    out: list[bytes] = []
    for line in lines:
        out.append(line if line.endswith(b"\n") else line + b"\n")
        if draw(st.booleans()):
            out.append(line if line.endswith(b"\n") else line + b"\n")
    return b"".join(out)


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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codex_file())
def test_a_rollout_reads_alike_with_and_without_the_shapes(data: bytes) -> None:
    rollout_three_ways("r.jsonl", data)


def test_the_fixtures_read_alike_with_and_without_the_shapes() -> None:
    root = Path(__file__).parent / "fixtures" / "logs" / "codex"
    files = sorted(root.rglob("*.jsonl"))
    assert files
    for path in files:
        rollout_three_ways(path.name, path.read_bytes())


# ------------------------------------------------------------------ reading in batches


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


def _lines_of(make: Callable[[], Iterator[tuple[int, bytes]]]) -> list[object]:
    out: list[object] = []
    try:
        for number, raw in make():
            out.append((number, raw))
    except ScenarioError as exc:
        out.append(str(exc))
    return out


_PIECES = st.lists(
    st.tuples(
        st.sampled_from([b"", b"x", b"{}", b"\xef\xbb\xbf{", b"\xef\xbb\xbf"]),
        st.integers(0, 70),
        st.sampled_from([b"\n", b"\n", b"\r\n", b""]),
    ),
    max_size=12,
).map(lambda parts: b"".join(a + b"y" * n + c for a, n, c in parts))


@settings(max_examples=600, deadline=None)
@given(
    data=_PIECES,
    line=st.sampled_from([5, 10, 20, 40]),
    piece=st.sampled_from([3, 7, 16, 1000]),
    batch=st.sampled_from([1, 2, 3, 5, 512]),
    size=st.sampled_from([None, 0, 5, 30, 60, 150]),
    sniffed=st.booleans(),
)
def test_lines_read_in_batches_are_the_lines_read_one_by_one(
    data: bytes, line: int, piece: int, batch: int, size: int | None, sniffed: bool
) -> None:
    """numbered_batches gives numbered_lines's lines, numbers, markers and size error,
    in the same order: long lines in pieces, a byte-order mark, the limit within a
    batch, and the lines format detection read first."""

    def stream() -> LineSource:
        raw = io.BytesIO(data)
        return _sniff(raw)[1] if sniffed else raw

    def flat() -> Iterator[tuple[int, bytes]]:
        for first, lines in numbered_batches(stream()):
            yield from enumerate(lines, first)

    with small_limits(line, min(piece, line + 1), batch, size):
        assert _lines_of(flat) == _lines_of(lambda: numbered_lines(stream()))


def test_a_batch_reads_no_more_than_a_piece_at_a_time() -> None:
    """A line longer than the line limit is read in pieces and skipped, never held."""
    data = b'{"a":1}\n' + b"z" * 5_000 + b"\n" + b'{"b":2}\n'
    stream, reads = spied_stream(data)
    with small_limits(400, 64, 512, None):
        lines = [line for _, batch in numbered_batches(stream) for line in batch]
    assert lines == [b'{"a":1}\n', reader.LONG_LINE, b'{"b":2}\n']
    assert 0 < max(reads) <= 64


# ------------------------------------------------------------------ times of a batch

_STAMP_FORMS = st.tuples(
    st.sampled_from([1970, 2000, 2024, 2025, 2026, 2100, 1, 9999, 0]),
    st.integers(0, 13),
)


@st.composite
def stamps_of_a_batch(draw: st.DrawFn) -> list[object]:
    """Mostly what the tools write, in one month (every day, hour, second it may
    name, and some it may not), with a character spoilt here and there, a stamp
    missing, a number, another form."""
    year, month = draw(_STAMP_FORMS)
    out: list[object] = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.integers(0, 15)) == 0:
            out.append(draw(st.one_of(st.none(), st.integers(0, 2 * 10**14), _ODD_TEXT)))
            continue
        day = draw(st.sampled_from([0, 1, 15, 28, 29, 30, 31, 32]))
        hour = draw(st.sampled_from([0, 9, 19, 20, 23, 24, 29]))
        minute, second = draw(st.sampled_from([0, 59, 60])), draw(st.sampled_from([0, 5, 59, 60]))
        text = (
            f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}."
            f"{draw(st.integers(0, 999)):03d}Z"
        )
        if draw(st.integers(0, 9)) == 0:
            at = draw(st.integers(0, 23))
            text = text[:at] + draw(st.sampled_from(list("0123456789-T:.Z xz٠"))) + text[at + 1 :]
        out.append(text)
    return out


@settings(max_examples=1500, deadline=None)
@given(stamps_of_a_batch())
def test_a_batch_of_stamps_is_timed_as_each_one_is(stamps: list[object]) -> None:
    assert millis_of(stamps) == [millis(s) for s in stamps]


@st.composite
def long_batches_of_stamps(draw: st.DrawFn) -> list[object]:
    """A whole batch (up to past BATCH_LINES) of stamps in one month of any year from
    1970 to 9999, at any milliseconds: the lanes of every size, with at most one stamp
    spoilt (which sends the batch one by one)."""
    start = draw(st.integers(0, 253_402_300_799_999 - 31 * 86_400_000))
    month = _stamp_of(start)[:8]
    first = millis(month + "01T00:00:00.000Z")
    assert first is not None
    span = 28 * 86_400_000 - 1
    n = draw(st.integers(1, 700))
    out: list[object] = [
        _stamp_of(first + t)
        for t in sorted(draw(st.lists(st.integers(0, span), min_size=n, max_size=n)))
    ]
    if draw(st.booleans()):
        at, place = draw(st.integers(0, n - 1)), draw(st.integers(0, 23))
        text = str(out[at])
        out[at] = (
            text[:place] + draw(st.sampled_from(list("0123456789-T:.Z x"))) + text[place + 1 :]
        )
    return out


@settings(max_examples=400, deadline=None)
@given(long_batches_of_stamps())
def test_a_long_batch_of_stamps_is_timed_as_each_one_is(stamps: list[object]) -> None:
    assert millis_of(stamps) == [millis(s) for s in stamps]


def test_a_batch_of_stamps_takes_the_fast_form_at_once() -> None:
    """Not vacuous: a month of well-formed stamps is timed without millis."""
    stamps: list[object] = [_stamp_of(1_767_225_600_000 + 7_777 * i) for i in range(512)]
    with patch.object(reader, "millis", side_effect=AssertionError("one by one")):
        assert millis_of(stamps) == [1_767_225_600_000 + 7_777 * i for i in range(512)]


# ------------------------------------------------------------------ the compiled decoder

needs_compiled = pytest.mark.skipif(
    compiled is None or CODEX_DECODER is None, reason="the compiled decoder is not installed"
)


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=codex_file(), batch=st.sampled_from([1, 2, 3, 7]))
def test_a_rollout_reads_alike_with_the_compiled_decoder_batch_by_batch(
    data: bytes, batch: int
) -> None:
    """Small batches: a batch the compiled decoder may not take (a byte that is not
    UTF-8) stands between ones it takes, and the state they share carries across."""
    with patch.object(reader, "BATCH_LINES", batch):
        rollout_three_ways("r.jsonl", data)


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
        obj["timestamp"] = _stamp_of(draw(st.integers(1_700_000_000_000, 1_700_100_000_000)))
    elif draw(st.booleans()):
        obj["timestamp"] = draw(st.one_of(_ODD_TEXT, st.integers(0, 10**14), st.none()))
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
            st.fixed_dictionaries({"type": st.just("text"), "text": _ODD_TEXT}),
            st.sampled_from([{"type": "image"}, {"text": 5}, "x"]),
        )
        block = st.one_of(
            st.fixed_dictionaries(
                {
                    "type": st.just("tool_result"),
                    "content": st.one_of(_ODD_TEXT, st.lists(part, max_size=3), st.none()),
                }
            ),
            st.fixed_dictionaries(
                {"type": st.sampled_from(["text", "thinking"]), "text": _ODD_TEXT}
            ),
            st.sampled_from([{"type": "tool_use", "input": {"a": [1, {"b": None}]}}, "x", 5]),
        )
        message: Any = {
            "id": draw(st.sampled_from(["m1", "m2", "m3", 5, None])),
            "model": draw(st.sampled_from(["claude-sonnet-4-5", "<synthetic>", 5, None])),
            "content": draw(st.one_of(_ODD_TEXT, st.lists(block, max_size=3))),
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
    obj.update(draw(st.dictionaries(st.one_of(_KEYS, _ODD_TEXT), _VALUES, max_size=2)))
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


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    main=st.lists(claude_like(), max_size=14),
    agent=st.lists(claude_like(), max_size=4),
    batch=st.sampled_from([1, 2, 5, 512]),
)
def test_a_claude_session_reads_alike_with_the_compiled_decoder(
    main: list[bytes], agent: list[bytes], batch: int
) -> None:
    files = [("s.jsonl", b"".join(main))]
    if agent:
        files.append(("s/subagents/agent-a1.jsonl", b"".join(agent)))
    with patch.object(reader, "BATCH_LINES", batch):
        claude_three_ways(files)


def test_the_generated_lines_give_the_compiled_decoder_lines_to_take() -> None:
    """The properties above are not vacuous: the compiled decoder takes some of the
    generated lines of each format, and refuses others."""
    if compiled is None or CLAUDE_DECODER is None or CODEX_DECODER is None:
        pytest.skip("the compiled decoder is not installed")

    def takes(decode: Callable[[bytes], object], raw: bytes) -> bool:
        try:
            decode(raw)
        except compiled.DECODE_ERRORS:
            return False
        return compiled.batch_ok([raw])

    for lines, decode in ((claude_like(), CLAUDE_DECODER), (codex_like(), CODEX_DECODER)):
        assert find(lines, lambda raw, d=decode: takes(d, raw))  # type: ignore[misc]
        assert find(lines, lambda raw, d=decode: not takes(d, raw))  # type: ignore[misc]


_CODEX_GOOD = (
    b'{"timestamp":"2026-01-01T00:00:11.987Z","type":"event_msg","payload":{"type":'
    b'"token_count","info":{"total_token_usage":{"input_tokens":12000,"cached_input_tokens":'
    b'10022,"output_tokens":366,"reasoning_output_tokens":342,"total_tokens":12366},'
    b'"last_token_usage":{"input_tokens":12000,"cached_input_tokens":10022,"output_tokens":'
    b'366,"reasoning_output_tokens":342,"total_tokens":12366},"model_context_window":272000},'
    b'"rate_limits":{"primary":{"used_percent":5.0}}}}'
)
_CLAUDE_GOOD = (
    b'{"parentUuid":null,"type":"assistant","uuid":"u1","timestamp":"2026-01-01T00:00:08.536Z",'
    b'"requestId":"r1","message":{"id":"m1","model":"claude-sonnet-4-5","content":[{"type":'
    b'"text","text":"hi"}],"usage":{"input_tokens":5,"cache_creation_input_tokens":582,'
    b'"cache_read_input_tokens":20000,"cache_creation":{"ephemeral_5m_input_tokens":0,'
    b'"ephemeral_1h_input_tokens":582},"output_tokens":13}}}'
)
_DEEP = b"[" * 2_000 + b"]" * 2_000


def _count_of(new: bytes, good: bytes) -> bytes:
    """The line with its first output count written as ``new``."""
    return re.sub(rb'"output_tokens":[0-9]+', b'"output_tokens":' + new, good, count=1)


#: Each a spoilt copy of a good line: (what, the good line's bytes -> the line's bytes).
_ADVERSARIAL: list[tuple[str, Callable[[bytes], bytes]]] = [
    *(
        (f"a count of {new.decode()}", partial(_count_of, new))
        for new in (
            b"366.0",
            b"1E3",
            b"1000000000001",
            b"99999999999999999999999",
            b"true",
            b"null",
            b'"366"',
            b"-366",
            b"-0",
        )
    ),
    ("an integer of 5,000 digits", lambda g: g[:-1] + b',"x":' + b"7" * 5_000 + b"}"),
    ("a number of 5,000 digits", lambda g: g[:-1] + b',"x":1.' + b"7" * 5_000 + b"}"),
    ("digits in a text", lambda g: g[:-1] + b',"x":"' + b"7" * 5_000 + b'"}'),
    ("NaN beside", lambda g: g[:-1] + b',"x":NaN}'),
    ("a huge exponent beside", lambda g: g[:-1] + b',"x":1e999999999}'),
    ("the type again", lambda g: g[:-1] + b',"type":"user"}'),
    ("the type again, escaped", lambda g: g[:-1] + b',"t\\u0079pe":"other"}'),
    ("a count again", lambda g: g.replace(b'"input_tokens":', b'"input_tokens":7,"input_tokens":')),
    ("the payload again", lambda g: g[:-1] + b',"payload":{"type":"message"}}'),
    ("the message again", lambda g: g[:-1] + b',"message":{"id":"m9"}}'),
    ("a payload of null", lambda g: g[:-1] + b',"payload":null}'),
    ("a logged cost", lambda g: g[:-1] + b',"costUSD":0.25}'),
    ("a timestamp as a number", lambda g: re.sub(rb'"2026[^"]*"', b"1767225611", g, count=1)),
    ("a timestamp as a float", lambda g: re.sub(rb'"2026[^"]*"', b"1767225611.5", g, count=1)),
    ("an odd timestamp", lambda g: g.replace(b'.987Z"', b'.987+01:00"').replace(b'.536Z"', b'Z"')),
    ("a lone surrogate beside", lambda g: g[:-1] + b',"x":"\\ud800"}'),
    (
        "a lone surrogate captured",
        lambda g: g.replace(b'"m1"', b'"\\udc00"').replace(b'"event_msg"', b'"\\udc00"'),
    ),
    ("U+2028 in a text", lambda g: g[:-1] + ',"x":"a\u2028b\u2029c\x85"}'.encode()),
    ("U+2028 in a captured text", lambda g: g.replace(b'"m1"', '"m\u2028"'.encode())),
    ("a byte not UTF-8 beside", lambda g: g[:-1] + b',"x":"\xff"}'),
    ("a byte not UTF-8 in a key", lambda g: g[:-1] + b',"\xc0\xaf":1}'),
    ("a surrogate in UTF-8", lambda g: g[:-1] + b',"x":"\xed\xa0\x80"}'),
    ("a control character", lambda g: g[:-1] + b',"x":"a\tb"}'),
    ("nested too deeply", lambda g: g[:-1] + b',"x":' + _DEEP + b"}"),
    ("cut short", lambda g: g[: len(g) // 2]),
    ("two values", lambda g: g + b" " + g),
    ("white space around", lambda g: b" \t" + g + b" \r"),
    ("a form feed", lambda g: b"\x0c" + g),
    ("not an object", lambda g: b"[" + g + b"]"),
    ("blank", lambda g: b"   "),
]


def _files_around(good: bytes, bad: bytes, end: bytes) -> bytes:
    """The bad line between good ones (the good ones repeat with other times)."""
    lines = [good, bad, good.replace(b":11.987Z", b":12.001Z").replace(b":08.536Z", b":09.000Z")]
    return b"".join(line + end for line in lines) + b"\n" + good + end


@pytest.mark.parametrize("end", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
@pytest.mark.parametrize(("what", "spoil"), _ADVERSARIAL, ids=[w for w, _ in _ADVERSARIAL])
def test_adversarial_lines_read_alike_with_the_compiled_decoder(
    what: str, spoil: Callable[[bytes], bytes], end: bytes
) -> None:
    """Every line the compiled decoder could read otherwise than the full decode: read
    in full instead, so both formats give the very same session and ledger."""
    for good in (_CODEX_GOOD, _CLAUDE_GOOD):
        bad = spoil(good)
        data = _files_around(good, bad, end)
        for bom in (b"", b"\xef\xbb\xbf"):
            if good is _CODEX_GOOD:
                rollout_three_ways("r.jsonl", bom + data)
            else:
                claude_three_ways([("s.jsonl", bom + data)])


@needs_compiled
@pytest.mark.parametrize("fmt", ["codex", "claude-code"])
def test_nesting_near_the_limit_reads_alike_with_the_compiled_decoder(fmt: str) -> None:
    """Around the depth where the standard decoder gives up, line by line: the
    compiled decoder, under its lowered limit, leaves every such line to it."""
    good = _CODEX_GOOD if fmt == "codex" else _CLAUDE_GOOD
    limit = sys.getrecursionlimit()
    lines = [good[:-1] + b',"x":' + b"[" * d + b"]" * d + b"}" for d in range(limit - 150, limit)]
    data = b"".join(line + b"\n" for line in lines)
    log = (
        rollout_three_ways("r.jsonl", data)
        if fmt == "codex"
        else claude_three_ways([("s.jsonl", data)])
    )
    deep = {p.rule for p in log.skipped}
    assert deep == {"is nested too deeply"}  # not vacuous: some lines are too deep ...
    assert len(log.skipped) < len(lines)  # ... and some are not


@needs_compiled
def test_the_compiled_decoder_keeps_the_last_copy_of_a_key_as_json_does() -> None:
    assert CODEX_DECODER is not None
    raw = b'{"type":"a","payload":{"type":"x","type":"y"},"type":"event_msg"}'
    line = CODEX_DECODER(raw)
    want = json.loads(raw)
    assert line.type == want["type"] == "event_msg"
    assert line.payload is not None
    assert line.payload.type == want["payload"]["type"] == "y"


@needs_compiled
def test_a_batch_with_a_long_run_of_digits_or_a_byte_not_utf8_is_decoded_in_full() -> None:
    assert compiled is not None
    limit = sys.get_int_max_str_digits()
    assert compiled.batch_ok([b'{"a":' + b"1" * 60 + b"}\n", "é".encode()])
    assert not compiled.batch_ok([b'{"a":1}\n', b'{"a":' + b"1" * (limit + 1) + b"}\n"])
    assert not compiled.batch_ok([b'{"a":"\xff"}\n'])
    assert not compiled.batch_ok([b'{"a":"\xe2\x80"}\n', b'\xa8"}\n'])  # no pair across lines


@pytest.mark.parametrize("stepped", [False, True])
def test_the_readers_tell_the_progress_listener_every_byte(stepped: bool) -> None:
    """Batch by batch, every byte read is told once; with a listener the batches are
    about STEP bytes (the page gets its turn often), without one as long as they go."""
    from budgetcore.replay.logs import read_session  # noqa: PLC0415

    lines = [
        json.dumps({"type": "user", "uuid": f"u{i}", "x": "y" * (300 + i * 37 % 400)})
        for i in range(3_000)
    ]
    data = ("\ufeff" + "\n".join(lines) + "\n").encode()
    heard: list[int] = []
    with progress.listening(heard.append) if stepped else ExitStack():
        log = read_session([("s.jsonl", data)], require=False)
    assert log.ledger[0].lines == 3_000
    if stepped:
        assert sum(heard) == len(data)
        assert max(heard) < 3 * progress.STEP  # lines of 300 to 700 bytes: about a step
        assert len(heard) > len(data) // progress.STEP
    else:
        assert heard == []


@needs_compiled
def test_the_compiled_decoder_reads_alike_in_a_thread_and_changes_no_setting() -> None:
    """Its nesting guard is frames of its own thread's stack: the recursion limit stays
    as it was, and a reader in another thread (a shallower stack: the standard decoder
    itself goes deeper there) agrees with the full decode there too."""
    import threading  # noqa: PLC0415

    limit = sys.getrecursionlimit()
    nested = [_CODEX_GOOD[:-1] + b',"x":' + b"[" * d + b"]" * d + b"}" for d in (10, 500)]
    data = b"".join(line + b"\n" for line in [_CODEX_GOOD, *nested, _CODEX_GOOD])
    deep = b"".join(
        _CODEX_GOOD[:-1] + b',"x":' + b"[" * d + b"]" * d + b"}\n" for d in range(900, 1000, 7)
    )
    here = rollout_three_ways("r.jsonl", data)
    rollout_three_ways("r.jsonl", deep)
    assert sys.getrecursionlimit() == limit
    there: list[object] = []

    def read() -> None:
        rollout_three_ways("r.jsonl", deep)
        there.append(rollout_three_ways("r.jsonl", data))  # both agreed in the thread

    worker = threading.Thread(target=read)
    worker.start()
    worker.join()
    assert there == [here]
    assert sys.getrecursionlimit() == limit
