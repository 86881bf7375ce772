"""The line shapes that make most of a Codex rollout, read without building their JSON
values (docs/replay.md, "Speed"), and only where that gives the very answer the
full decode gives; any other line is decoded in full.

A shape is a regular expression that accepts a subset of JSON's own grammar, written
out with every key the reader looks at in a fixed order, so a line it accepts is a
complete, valid JSON object with those values and no second copy of any of those keys:

- a ``response_item`` line: its time and ``payload.type`` (the ledger's label); every
  other member of the payload is checked against JSON's grammar (compact, nested up to
  :data:`_DEPTH` levels, keys without escapes) and dropped;
- a ``token_count`` line with both usages and the window: its time and counts. What
  follows ``"rate_limits":`` is checked once per distinct text (a rollout repeats a few)
  by the decoder's scanner, alone: one JSON value and the two closing braces.

A string the shapes capture is printable ASCII without a quote or a backslash, so its
bytes are its decoded text; a count has at most 12 digits, so it is below 10^12 and
:func:`~budgetcore.inputs.numbers.read_number` would give the same integer. A line with
a byte above 127 is also checked to be UTF-8. tests/test_log_reader.py generates lines,
valid, truncated and adversarial, and checks every shape's answer against the full
decode's.
"""

from __future__ import annotations

import re

from budgetcore.replay.logs.reader import scan

__all__ = ["response_item", "token_count"]

#: Nesting the response_item shape accepts inside a payload member (deeper: decoded).
_DEPTH = 3
#: Longer lines are decoded: the decoder scans long strings faster than a pattern does.
_MAX_SHAPED = 4096

_TEXT = rb'"([ !#-\[\]-~]*)"'  # printable ASCII, no quote or backslash: as decoded
_COUNT = rb"(0|[1-9][0-9]{0,11})"  # an integer below 10^12
_STRING = rb'"[^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+"'
# At most 30 digits a part: never past int()'s digit limit, and read_number takes every
# such float without raising (NaN and Infinity are not in it).
_NUMBER = rb"-?(?:0|[1-9][0-9]{0,29})(?:\.[0-9]{1,30})?(?:[eE][-+]?[0-9]{1,30})?"


def _value(depth: int) -> bytes:
    """JSON values (compact, no white space), containers nested up to ``depth``."""
    scalar = _STRING + rb"|" + _NUMBER + rb"|true|false|null"
    if depth == 0:
        return rb"(?:" + scalar + rb")"
    inner = _value(depth - 1)
    # After an item: a comma and the next item, or the closing bracket; never both.
    obj = rb"\{(?:" + _STRING + rb":" + inner + rb'(?:,(?=")|(?=\})))*+\}'
    arr = rb"\[(?:" + inner + rb"(?:,(?=[^\]])|(?=\])))*+\]"
    return rb"(?:" + scalar + rb"|" + obj + rb"|" + arr + rb")"


def _usage() -> bytes:
    return (
        rb'\{"input_tokens":' + _COUNT + rb',"cached_input_tokens":' + _COUNT
        + rb',"output_tokens":' + _COUNT + rb',"reasoning_output_tokens":' + _COUNT
        + rb',"total_tokens":' + _COUNT + rb"\}"
    )  # fmt: skip


class _Patterns:
    """Compiled on first use (a Claude Code import never needs them)."""

    response: re.Pattern[bytes]
    token: re.Pattern[bytes]
    ready = False

    @classmethod
    def load(cls) -> None:
        key = rb'"(?!type")[^"\\\x00-\x1f]*+"'  # not payload.type again: one copy of it
        cls.response = re.compile(
            rb'\{"timestamp":' + _TEXT + rb',"type":"response_item","payload":\{"type":'
            + _TEXT + rb"(?:," + key + rb":" + _value(_DEPTH) + rb")*+\}\}\r?\n?\Z"
        )  # fmt: skip
        cls.token = re.compile(
            rb'\{"timestamp":' + _TEXT + rb',"type":"event_msg","payload":'
            rb'\{"type":"token_count","info":\{"total_token_usage":' + _usage()
            + rb',"last_token_usage":' + _usage() + rb',"model_context_window":' + _COUNT
            + rb'\},"rate_limits":'
        )  # fmt: skip
        cls.ready = True


def _utf8(raw: bytes) -> bool:
    if raw.isascii():
        return True
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def response_item(raw: bytes) -> tuple[str, str] | None:
    """(timestamp, payload type) of a response_item line, or None: decode it."""
    if len(raw) > _MAX_SHAPED:
        return None
    if not _Patterns.ready:
        _Patterns.load()
    m = _Patterns.response.match(raw)
    if m is None or not _utf8(raw):
        return None
    return m.group(1).decode("ascii"), m.group(2).decode("ascii")


#: Texts after "rate_limits": known to be one JSON value and the two closing braces.
_TAILS: dict[bytes, None] = {}
_MAX_TAILS = 256
_ENDS = ("}}", "}}\n", "}}\r\n")


def _good_tail(tail: bytes) -> bool:
    if tail in _TAILS:
        return True
    try:
        text = tail.decode("utf-8")
        _, end = scan(text, 0)
    except (ValueError, StopIteration, RecursionError):
        return False  # UnicodeDecodeError is a ValueError too
    if text[end:] not in _ENDS:
        return False
    if len(_TAILS) >= _MAX_TAILS:
        _TAILS.clear()
    _TAILS[tail] = None
    return True


Counts = tuple[int, int, int, int, int]


def token_count(raw: bytes) -> tuple[str, Counts, Counts, int] | None:
    """(timestamp, last usage, total usage, window) of a token_count line, the usages in
    the reader's order (input, cached, output, reasoning, cache write: 0 here); None:
    decode it."""
    if not _Patterns.ready:
        _Patterns.load()
    m = _Patterns.token.match(raw)
    if m is None or not _good_tail(raw[m.end() :]):
        return None
    g = m.groups()
    total = (int(g[1]), int(g[2]), int(g[3]), int(g[4]), 0)
    last = (int(g[6]), int(g[7]), int(g[8]), int(g[9]), 0)
    return g[0].decode("ascii"), last, total, int(g[11])
