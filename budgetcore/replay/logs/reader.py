"""Reading a log line by line (docs/replay.md, "Reading"): bytes in, one decoded JSON
value per line out, never the whole file in memory.

A binary stream's ``readline`` splits at ``b"\\n"`` only, so U+2028, U+2029 and U+0085
(which JSON allows raw inside strings) stay inside their line, and a byte that is not
UTF-8 spoils its own line, not the file. Numbers go through the one number reader
(:func:`budgetcore.inputs.numbers.read_number`): an absurd exponent becomes a marker
that the field check rejects, never an ``InvalidOperation``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import IO

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, as_whole, read_number
from budgetcore.inputs.text import limit_of, too_large

__all__ = [
    "BLANK",
    "MAX_LOG_REQUESTS",
    "Malformed",
    "count_of",
    "decoded_lines",
    "format_of",
    "millis",
    "too_many_requests",
]

#: The most requests one session may hold, every series and file together. A real
#: session has hundreds to a few thousand; a log's numbers take about 200 bytes per
#: request, so the cap bounds the memory at a few hundred MB, like the turn cap does.
MAX_LOG_REQUESTS = 1_000_000

BLANK = object()  # a line with nothing but white space


class Malformed:
    """A line that is not a JSON object, and why (English; the ledger lists it)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


_decode = json.JSONDecoder(parse_float=read_number, parse_constant=NonFinite).decode


def decoded_lines(stream: IO[bytes], what: str = "log") -> Iterator[tuple[int, object]]:
    """(1-based line number, value) for every line: a dict, :data:`BLANK` or a
    :class:`Malformed`. Stops with the size error past ``SIZE_LIMITS[what]``."""
    limit = limit_of(what)
    seen = 0
    number = 0
    readline = stream.readline
    while True:
        raw = readline()
        if not raw:
            return
        number += 1
        seen += len(raw)
        if seen > limit:
            raise too_large(what, limit)
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        yield number, _value(raw)


def _value(raw: bytes) -> object:
    if not raw.strip():
        return BLANK
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Malformed(f"is not UTF-8 text (byte {exc.start + 1} of the line)")
    try:
        obj = _decode(text)
    except RecursionError:
        return Malformed("is nested too deeply")
    except ValueError:  # JSONDecodeError, or an integer beyond int()'s digit limit
        return Malformed("is not valid JSON")
    if not isinstance(obj, dict):
        return Malformed("is not a JSON object")
    return obj


_CODEX_TYPES = frozenset(
    {
        "session_meta",
        "turn_context",
        "event_msg",
        "response_item",
        "compacted",
        "inter_agent_communication",
    }
)


def format_of(obj: dict[str, object]) -> str | None:
    """ "codex", "claude-code", or None when one line does not say."""
    kind = obj.get("type")
    if "payload" in obj and kind in _CODEX_TYPES:
        return "codex"
    if (
        "uuid" in obj
        or "sessionId" in obj
        or "parentUuid" in obj
        or isinstance(obj.get("message"), dict)
        or kind in ("summary", "file-history-snapshot", "queue-operation")
    ):
        return "claude-code"
    if "record_type" in obj or ("id" in obj and "instructions" in obj):
        return "codex"  # the legacy rollout (before token counts): nothing to count
    return None


def count_of(raw: object) -> int | None:
    """A token count: a whole number from 0 to 10^12; null or missing is 0; else None."""
    if raw is None:
        return 0
    if type(raw) is int:  # the common case, first
        return raw if 0 <= raw <= MAX_TOKENS else None
    return as_whole(raw)


_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def millis(raw: object) -> int | None:
    """An entry's time as whole milliseconds since the epoch, exactly: ISO-8601 text
    (``Z`` or an offset; no offset is UTC; digits below a millisecond are dropped, a
    floor), or epoch seconds / milliseconds as a JSON integer (headless Codex). None
    when absent or unreadable."""
    if isinstance(raw, str):
        if not 10 <= len(raw) <= 40:
            return None
        try:
            when = datetime.fromisoformat(raw)
        except ValueError:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        delta = when - _EPOCH
        return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000
    if type(raw) is int and 0 <= raw < 10**14:
        return raw * 1000 if raw < 10**11 else raw
    return None


def too_many_requests(limit: int = MAX_LOG_REQUESTS) -> ScenarioError:
    return ScenarioError(
        [
            Problem.coded(
                "log",
                f"has more than {limit:,} requests (the most one session may hold)",
                "log-too-many-requests",
                limit=f"{limit:,}",
            )
        ]
    )
