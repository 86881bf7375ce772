"""Text as it arrives: bytes to UTF-8, text to lines, and the size limit of every input.

Lines are split on ``"\\n"`` only (a ``"\\r"`` before it is dropped). ``str.splitlines``
also breaks at U+2028, U+2029, U+0085 and five other characters that JSON allows raw
inside a string, which would cut a valid JSON Lines entry in two and shift every later
line number.

Every input has a size limit, stated once here and used by the CLI and the page alike;
reading past it stops at the limit (``read_limited``) instead of filling the memory.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import BinaryIO

from budgetcore.errors import Problem, ScenarioError

__all__ = [
    "KIB",
    "MIB",
    "SIZE_LIMITS",
    "decode_utf8",
    "limit_of",
    "read_limited",
    "size_text",
    "split_lines",
    "too_large",
]

KIB = 1024
MIB = 1024 * KIB

#: The most bytes each input may hold. A scenario, a config or options file is a few
#: kilobytes; the limits leave room for hand-written comments and pasted samples while
#: keeping every parse well under a second. Turn files and logs are sessions: a log is
#: read line by line, so its limit is what a session can reach, not what memory holds.
SIZE_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "scenario": 1 * MIB,
        "config": 1 * MIB,
        "options": 1 * MIB,
        "generate": 64 * KIB,
        "samples": 1 * MIB,
        "turns": 64 * MIB,
        "cases": 64 * MIB,
        "fragment": 64 * KIB,
        "log": 4096 * MIB,
    }
)


def limit_of(what: str) -> int:
    """The size limit of input ``what`` (a key of :data:`SIZE_LIMITS`)."""
    return SIZE_LIMITS[what]


def size_text(size: int) -> str:
    """A limit as people read it, binary units (1 MiB = 1,048,576 bytes).

    >>> size_text(1048576), size_text(65536), size_text(1000)
    ('1 MiB', '64 KiB', '1,000 bytes')
    """
    for unit, name in ((MIB, "MiB"), (KIB, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit:,} {name}"
    return f"{size:,} bytes"


def too_large(what: str, limit: int) -> ScenarioError:
    """The one error for an input above its size limit."""
    return ScenarioError(
        [
            Problem.coded(
                what,
                f"is larger than its limit of {size_text(limit)} ({limit:,} bytes)",
                "too-large",
                limit=size_text(limit),
            )
        ]
    )


def read_limited(stream: BinaryIO, what: str, limit: int | None = None) -> bytes:
    """All of ``stream``, or :func:`too_large` as soon as it holds more than the limit
    (a device such as /dev/zero ends there, not when the memory runs out)."""
    cap = limit_of(what) if limit is None else limit
    data = stream.read(cap + 1)
    if len(data) > cap:
        raise too_large(what, cap)
    return data


def decode_utf8(data: bytes, what: str) -> str:
    """UTF-8 text (a byte-order mark is dropped); one coded problem naming the first
    byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        rule = f"must be UTF-8 text (byte {exc.start})"
        raise ScenarioError([Problem.coded(what, rule, "utf8", byte=exc.start)]) from None


def split_lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based number, line) for every line of ``text``, split on ``"\\n"`` only.

    >>> list(split_lines('{"a": "x\\u2028y"}\\r\\n\\n2'))
    [(1, '{"a": "x\\u2028y"}'), (2, ''), (3, '2')]
    """
    if not text:
        return
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no line
    for number, line in enumerate(lines, start=1):
        yield number, line[:-1] if line.endswith("\r") else line
