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
    "GIB",
    "KIB",
    "MIB",
    "SIZE_LIMITS",
    "check_size",
    "decode_utf8",
    "limit_of",
    "neutral",
    "read_limited",
    "size_text",
    "split_lines",
    "too_large",
    "utf8_size_above",
]

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

#: The most bytes (of UTF-8 text) each input may hold, the same in the CLI and the page
#: (docs/limits.md). A scenario, a config or options file is a few kilobytes; the limits
#: leave room for hand-written comments and pasted samples while keeping every parse well
#: under a second. Turn files and logs are sessions: a log is read line by line, so its
#: limit is what a session can reach, not what memory holds. Typed text is small: a
#: model search or name, and any one value typed into a page field or given as a CLI
#: flag. A seed is such a value: its range (2^63 - 1) is its integer rule's to say, as
#: every other integer field's is; a 32-byte limit of its own said "too long" of a
#: 40-digit seed where "must be an integer from 0 to ..." was the rule broken.
SIZE_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "scenario": 1 * MIB,  # plan/export/report/replay FILE, check/peers --scenario
        "config": 1 * MIB,  # check FILE, plan --config, the page's import box and file
        "options": 1 * MIB,  # replay/report --options
        "generate": 64 * KIB,  # replay/report --generate (inline or a file)
        "samples": 1 * MIB,  # the page's pasted samples
        "turns": 64 * MIB,  # replay/report --turns
        # The page's pasted turns: a text box is re-read on every keystroke, so it holds
        # what a person pastes (about 30,000 turns), not a whole file's worth.
        "page-turns": 1 * MIB,
        "cases": 64 * MIB,  # pytest --budget-cases
        "fragment": 64 * KIB,  # --fragment, the page's link
        "log": 1 * GIB,  # replay/report --log, each file (read line by line)
        "log-line": 64 * MIB,  # one line of a log: longer is a malformed line, skipped
        # The page's log import, every file together: the browser holds what it is given.
        "page-log": 512 * MIB,
        "query": 256,  # models QUERY, peers --model, a scenario's model name, the pickers
        "field": 1 * KIB,  # any other one typed value: a page field, a number flag, a seed
        "axis": 4 * KIB,  # tune --k / --s: up to 200 values of up to 13 digits
    }
)


def limit_of(what: str) -> int:
    """The size limit of input ``what`` (a key of :data:`SIZE_LIMITS`)."""
    return SIZE_LIMITS[what]


def size_text(size: int, byte: str = "bytes") -> str:
    """A limit as people read it, binary units (1 MiB = 1,048,576 bytes); ``byte`` names
    a size below a whole KiB ("B", the unit's symbol, in a problem's parameters: the
    same in every language, as KiB and MiB are).

    >>> size_text(1048576), size_text(65536), size_text(1000), size_text(4 * GIB)
    ('1 MiB', '64 KiB', '1,000 bytes', '4 GiB')
    >>> size_text(256, "B")
    '256 B'
    """
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit:,} {name}"
    return f"{size:,} {byte}"


def _limit(limit: int) -> tuple[str, dict[str, str]]:
    """A limit as a problem says it: in a binary unit and in bytes (``1 MiB (1,048,576
    bytes)``), or in bytes alone below a whole KiB (``-bytes``, ``256 bytes``)."""
    shown = size_text(limit, "B")
    if shown.endswith(" B"):
        return "-bytes", {"bytes": f"{limit:,}"}
    return "", {"limit": shown, "bytes": f"{limit:,}"}


def too_large(
    what: str, limit: int | None = None, size: int | None = None, *, at_least: bool = False
) -> ScenarioError:
    """The one error for an input above its size limit (``what`` names the input as the
    user sees it: ``config``, ``--seed``; its limit defaults to the table's for ``what``).
    With ``size``, its size in bytes as known before reading it (a file's size), or a
    lower bound with ``at_least`` (a pasted text's length in UTF-16 code units, which
    its UTF-8 bytes are never fewer than).

    >>> print(too_large("query", 256))
    query is larger than its limit of 256 bytes
    >>> print(too_large("config", size=5_242_880))
    config is 5,242,880 bytes, larger than its limit of 1 MiB (1,048,576 bytes)
    >>> print(too_large("config", size=5_242_880, at_least=True))
    config is at least 5,242,880 bytes, larger than its limit of 1 MiB (1,048,576 bytes)
    """
    cap = limit_of(what) if limit is None else limit
    variant, params = _limit(cap)
    if size is None:
        return ScenarioError([Problem.coded(what, "too-large" + variant, **params)])
    code = ("too-large-least" if at_least else "too-large-size") + variant
    return ScenarioError([Problem.coded(what, code, size=f"{size:,}", **params)])


def utf8_size_above(text: str, limit: int) -> bool:
    """Whether ``text`` takes more than ``limit`` bytes as UTF-8, encoding it only when
    its length alone cannot tell (a character takes 1 to 4 bytes)."""
    if len(text) > limit:
        return True
    if len(text) * 4 <= limit:
        return False
    return len(text.encode("utf-8", "surrogatepass")) > limit


def check_size(text: str | bytes, what: str, shown: str | None = None) -> None:
    """Raise :func:`too_large` when ``text`` (a paste, a typed value, an argument) is
    above the limit of input ``what``; ``shown`` names it as the user sees it."""
    cap = limit_of(what)
    above = len(text) > cap if isinstance(text, bytes) else utf8_size_above(text, cap)
    if above:
        # Its size, as a typed value's and a file's say (a 64 KiB link said only the limit).
        size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
        raise too_large(shown or what, cap, size)


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
    byte that is not UTF-8, counted from 1 as a log line's is (the Chinese sentence
    reads it as an ordinal, 第 1 字节).

    >>> print(decode_utf8(b"\\xff\\xfe{}", "config"))
    Traceback (most recent call last):
    budgetcore.errors.ScenarioError: config must be UTF-8 text (byte 1)
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioError([Problem.coded(what, "utf8", byte=exc.start + 1)]) from None


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


#: The ASCII bytes neutral() escapes: the C0 controls but tab and newline, and DEL.
_CONTROL_BYTES = bytes([*range(9), *range(11, 32), 127])


def _escaped(ch: str) -> str:
    """One character as a ``\\u`` escape (two, a UTF-16 pair, beyond U+FFFF): the same
    text is a valid escape inside a JSON or TOML string and inert on a terminal."""
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def neutral(text: str) -> str:
    """``text`` safe to reach a terminal, a file or a page as text: every character
    Python does not call printable (controls and escape sequences, bidirectional and
    other format characters, line separators, lone surrogates) becomes its ``\\u``
    escape; newlines and tabs stay. Text from a file (an entry type, a model name, a
    file name) may hold ``ESC ]0;…`` (retitle the terminal) or ``\\ud800`` (which no
    UTF-8 stream can encode): neither can then do anything but be read.

    >>> neutral("ok\\n"), neutral("a\\x1b]0;x\\x07b"), neutral("\\ud800"), neutral("\\U000e0001")
    ('ok\\n', 'a\\\\u001b]0;x\\\\u0007b', '\\\\ud800', '\\\\udb40\\\\udc01')
    """
    # The common case first, in C: ASCII text (isascii is a flag) with no control byte;
    # a JSON row of 800 characters costs about a microsecond.
    if text.isascii():
        data = text.encode("ascii")
        if len(data.translate(None, _CONTROL_BYTES)) == len(data):
            return text
    elif text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\n\t" else _escaped(ch) for ch in text)
