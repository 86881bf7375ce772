"""Imported agent logs (docs/replay.md): Claude Code session JSONL and Codex CLI
rollout JSONL, read line by line into numbers.

One module per job: :mod:`.reader` (bytes to one JSON value per line), :mod:`.claude`
and :mod:`.codex` (a format's entries to series of requests, with the ledger),
:mod:`.model` (the values), :mod:`.usage` (measured usage and its cost), :mod:`.folder`
(which files of a folder make which sessions). Message text is dropped with its line:
nothing here keeps, shows or sends it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import IO

from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.logs.claude import read_claude_code
from budgetcore.replay.logs.codex import read_codex
from budgetcore.replay.logs.model import (
    FORMATS,
    FileLedger,
    LogCompaction,
    LogRequest,
    LogSeries,
    ParsedLog,
)
from budgetcore.replay.logs.reader import (
    BLANK,
    MAX_LINE_BYTES,
    MAX_LOG_REQUESTS,
    LineSource,
    Malformed,
    Replayed,
    at_line,
    decoded_lines,
    format_of,
)

__all__ = [
    "FORMATS",
    "MAX_LOG_REQUESTS",
    "FileLedger",
    "LogCompaction",
    "LogRequest",
    "LogSeries",
    "NoRequests",
    "ParsedLog",
    "detect_format",
    "parse_claude_code",
    "parse_codex",
    "parse_log",
    "read_session",
]

#: How many lines format detection looks at before it gives up.
_SNIFF_LINES = 200
_NAMES = {"claude-code": "Claude Code", "codex": "Codex CLI"}


def _stream(data: str | bytes | LineSource) -> LineSource:
    if isinstance(data, str):
        return io.BytesIO(data.encode("utf-8", "surrogatepass"))
    if isinstance(data, bytes | bytearray | memoryview):
        return io.BytesIO(bytes(data))
    return data


def _head_value(raw: bytes) -> object:
    """One sniffed line's value, as the reader decodes it (a byte-order mark aside)."""
    return next(decoded_lines(io.BytesIO(raw.removeprefix(b"\xef\xbb\xbf"))), (0, BLANK))[1]


def _sniff(stream: LineSource) -> tuple[str | None, Replayed]:
    head: list[bytes] = []
    found: str | None = None
    for _ in range(_SNIFF_LINES):
        raw = stream.readline(MAX_LINE_BYTES + 1)  # the reader says what is too long
        if not raw or len(raw) > MAX_LINE_BYTES:
            head.append(raw)
            break
        head.append(raw)
        value = _head_value(raw)
        if isinstance(value, dict) and (found := format_of(value)) is not None:
            break
    return found, Replayed(head, stream)


def _unknown(head: Replayed) -> ScenarioError:
    """Why no format was found: an empty file says so (no line, or only blank ones
    within the lines sniffed, which then were the whole file)."""
    if all(not line.strip() for line in head.head) and len(head.head) < _SNIFF_LINES:
        return ScenarioError(
            [Problem.coded("log", "is empty (no line with an entry)", "log-empty")]
        )
    first = head.head[0] if head.head else b""
    pairs = first[: len(first) // 2 * 2]
    if (
        first.startswith((b"\xff\xfe", b"\xfe\xff"))
        or (  # a mark, or ASCII in UTF-16
            len(pairs) >= 4 and any(pairs) and (not any(pairs[1::2]) or not any(pairs[::2]))
        )
    ):
        return ScenarioError(
            [
                Problem.coded(
                    "log",
                    "is UTF-16 text (a byte-order mark or zero bytes); a log is UTF-8 JSON "
                    "Lines (iconv -f UTF-16 -t UTF-8 converts it)",
                    "log-utf16",
                )
            ]
        )
    # Why the first line that is not blank says nothing: the reader's own words for it.
    why: list[Problem] = []
    for number, raw in enumerate(head.head, 1):
        value = _head_value(raw)
        if value is BLANK:
            continue
        if isinstance(value, Malformed):
            why.append(at_line("", number, value.problem))
        break
    return ScenarioError(
        [
            Problem.coded(
                "log",
                "is neither a Claude Code session JSONL nor a Codex CLI rollout JSONL",
                "log-unknown-format",
            ),
            *why,
        ]
    )


def detect_format(data: str | bytes) -> str:
    """ "claude-code" or "codex", from the first lines that say which; raises otherwise."""
    found, head = _sniff(_stream(data))
    if found is None:
        raise _unknown(head)
    return found


#: The malformed lines a "no usable request" error names after itself.
_NAMED_LINES = 3


class NoRequests(ScenarioError):
    """A file read to its end with no usable request: the error, and the ledger of what
    it held (``lines``, so a folder's total still counts every line)."""

    def __init__(self, problems: list[Problem], log: ParsedLog) -> None:
        super().__init__(problems)
        self.lines = sum(f.lines for f in log.ledger)


def _no_requests(log: ParsedLog) -> ScenarioError:
    """What the file held instead of a request: its ledger's counts, then the first
    malformed lines, each with its field, rule and value."""
    lines = sum(f.lines for f in log.ledger)
    malformed = sum(len(f.malformed) for f in log.ledger)
    kinds: dict[str, int] = {}
    for f in log.ledger:
        for kind, n in f.entries:
            kinds[kind] = kinds.get(kind, 0) + n
    entries = ", ".join(f"{k} {n:,}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    fmt = _NAMES[log.format]
    first = Problem.coded(
        "log",
        f"has no usable request in this {fmt} file: {lines:,} line(s) read, {malformed:,} "
        f"malformed, not requests: {entries or 'none'}",
        "log-no-requests",
        lines=f"{lines:,}",
        malformed=f"{malformed:,}",
        entries=entries or "-",
    )
    return NoRequests([first, *log.skipped[:_NAMED_LINES]], log)


def read_session(
    files: Sequence[tuple[str, str | bytes | LineSource]],
    fmt: str | None = None,
    *,
    require: bool = True,
) -> ParsedLog:
    """One session from its files (the main file first; Claude Code subagent files
    after it), streamed line by line. ``fmt`` None: detected from the main file's first
    lines. Raises when nothing in it is a request (unless ``require`` is False)."""
    if not files:
        raise ScenarioError([Problem.coded("log", "no file given", "log-no-file")])
    streams = [(name, _stream(data)) for name, data in files]
    if fmt is None:
        fmt, first = _sniff(streams[0][1])
        if fmt is None:
            raise _unknown(first)
        streams[0] = (streams[0][0], first)
    if fmt == "claude-code":
        log = read_claude_code(streams)
    elif fmt == "codex":
        if len(streams) > 1:
            raise ScenarioError(
                [Problem.coded("log", "a Codex rollout is one file", "log-codex-one-file")]
            )
        log = read_codex(*streams[0])
    else:
        raise ScenarioError([Problem.of("log format", f"must be one of {', '.join(FORMATS)}", fmt)])
    if require and not log.series:
        raise _no_requests(log)
    return log


def parse_log(data: str | bytes | IO[bytes], fmt: str | None = None, name: str = "") -> ParsedLog:
    """One log file (its text, bytes or a binary stream) of format ``fmt`` (detected
    when None)."""
    return read_session([(name, data)], fmt)


def parse_claude_code(data: str | bytes | IO[bytes], name: str = "") -> ParsedLog:
    return read_session([(name, data)], "claude-code")


def parse_codex(data: str | bytes | IO[bytes], name: str = "") -> ParsedLog:
    return read_session([(name, data)], "codex")
