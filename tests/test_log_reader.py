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
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from budgetcore.errors import NonFinite
from budgetcore.inputs.numbers import read_number
from budgetcore.replay.logs import shapes
from budgetcore.replay.logs.codex import _read
from budgetcore.replay.logs.model import ParsedLog
from budgetcore.replay.logs.reader import (
    BLANK,
    Malformed,
    decode_line,
    millis,
    numbered_batches,
    numbered_lines,
)

try:
    from budgetcore.replay.logs import compiled
except ImportError:  # msgspec is not installed: only the standard library's paths
    compiled = None  # type: ignore[assignment]
CODEX_DECODER = None if compiled is None else compiled.codex_decoder()

_oracle_decode = json.JSONDecoder(parse_float=read_number, parse_constant=NonFinite).decode


def oracle(raw: bytes) -> object:
    """The reader's answer for one line before the fast paths (its code, verbatim)."""
    if raw[:1] != b"{" and not raw.strip():
        return BLANK
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Malformed(f"is not UTF-8 text (byte {exc.start + 1} of the line)")
    try:
        obj = _oracle_decode(text)
    except RecursionError:
        return Malformed("is nested too deeply")
    except ValueError:
        return Malformed("is not valid JSON")
    if not isinstance(obj, dict):
        return Malformed("is not a JSON object")
    return obj


def canon(value: object) -> object:
    """A value with its types spelt out (1, True, 1.0 and Decimal 1 all differ)."""
    if value is BLANK:
        return ("blank",)
    if isinstance(value, Malformed):
        return ("malformed", value.reason)
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


@st.composite
def codex_like(draw: st.DrawFn) -> bytes:
    """A Codex rollout line as Codex writes it most of the time (so the shapes take
    many), else nearly: an odd timestamp, big counts, deep or odd values, white space,
    a spoilt text, a byte that is not UTF-8."""
    if draw(st.integers(0, 3)):
        stamp = _stamp_of(draw(st.integers(1_600_000_000_000, 1_900_000_000_000)))
    else:
        odd = ["2026-01-20T09:00:05Z", "", 'x\\"y', "2026-01-20T09:00:05.1+01:00"]
        stamp = draw(st.one_of(st.sampled_from(odd), _ODD_TEXT))
    usage = st.tuples(  # in Codex's order (fixed_dictionaries may shuffle)
        _COUNTS, st.integers(0, 9_999), st.integers(0, 9_999), st.integers(0, 99), _COUNTS
    ).map(lambda v: dict(zip(_USAGE_KEYS, v, strict=True)))
    kind = draw(st.sampled_from(["token", "token", "item", "item", "other"]))
    if kind == "token":
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
