"""Imported agent logs (docs/replay.md): each agent's session files (Claude Code, Codex
CLI, pi, Gemini CLI, Qwen Code, Kimi CLI), read into numbers.

One module per job: :mod:`.reader` (bytes to one JSON value per line), :mod:`.agents`
(the table of agents: how each is told apart and read), one module per agent
(:mod:`.claude`, :mod:`.codex`, :mod:`.pi`, ...: its entries to series of requests,
with the ledger), :mod:`.model` (the values), :mod:`.usage` (measured usage and its
cost), :mod:`.folder` (which files of a folder make which sessions). Message text is
dropped with its line: nothing here keeps, shows or sends it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import IO

from budgetcore.errors import Problem, ScenarioError
from budgetcore.replay.logs.agents import AGENTS, Agent, agent, names
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
)
from budgetcore.replay.logs.tally import Document, lines_of

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


def _stream(data: str | bytes | LineSource) -> LineSource:
    if isinstance(data, str):
        return io.BytesIO(data.encode("utf-8", "surrogatepass"))
    if isinstance(data, bytes | bytearray | memoryview):
        return io.BytesIO(bytes(data))
    return data


def _head_value(raw: bytes) -> object:
    """One sniffed line's value, as the reader decodes it (a byte-order mark aside)."""
    return next(decoded_lines(io.BytesIO(raw.removeprefix(b"\xef\xbb\xbf"))), (0, BLANK))[1]


def _claimed(value: dict[str, object]) -> Agent | None:
    for a in AGENTS:
        if a.claims is not None and a.claims(value):
            return a
    return None


def _sniff(stream: LineSource, name: str = "") -> tuple[Agent | None, Replayed | Document]:
    """The agent whose file this is, from its first lines (or, for a JSON document, its
    whole value), and the stream to read it from."""
    head: list[bytes] = []
    found: Agent | None = None
    first: object = BLANK
    for _ in range(_SNIFF_LINES):
        raw = stream.readline(MAX_LINE_BYTES + 1)  # the reader says what is too long
        if not raw or len(raw) > MAX_LINE_BYTES:
            head.append(raw)
            break
        head.append(raw)
        value = _head_value(raw)
        if first is BLANK:
            first = value
            if name.endswith(".json") or (
                isinstance(value, Malformed)
                and value.problem.code == "log-line-not-json"
                and raw.lstrip()[:1] in (b"{", b"[")
            ):
                # One JSON document (pretty-printed, or a .json file): read as a whole.
                return _document(Replayed(head, stream))
        if isinstance(value, dict) and (found := _claimed(value)) is not None:
            break
    return found, Replayed(head, stream)


def _document(stream: Replayed) -> tuple[Agent | None, Document]:
    from budgetcore.inputs.text import limit_of  # noqa: PLC0415

    doc = Document.parse(lines_of(stream, limit_of("log")))
    for a in AGENTS:
        if a.claims_document is not None and a.claims_document(doc.value):
            return a, doc
    return None, doc


def _unknown(head: Replayed | Document) -> ScenarioError:
    """Why no agent was found: an empty file says so (no line, or only blank ones
    within the lines sniffed, which then were the whole file)."""
    if isinstance(head, Document):
        return ScenarioError([_unknown_document(head)])
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
                f"is not a session log of an agent we read ({names()})",
                "log-unknown-format",
                agents=names(),
            ),
            *why,
        ]
    )


def _unknown_document(doc: Document) -> Problem:
    """A JSON document no agent claims: what it looks like, and what is missing."""
    if isinstance(doc.value, Problem):
        return Problem.coded(
            "log",
            f"is one JSON document (not JSON Lines), and it {doc.value.rule}",
            "log-document-bad",
            why=doc.value.rule,
        )
    looks = [a for a in AGENTS if a.looks_like is not None and a.looks_like(doc.value)]
    if looks:
        a = looks[0]
        return Problem.coded(
            "log",
            f"looks like a {a.name} file but {a.missing}",
            "log-looks-like",
            agent=a.name,
            missing=a.missing,
        )
    return Problem.coded(
        "log",
        f"is one JSON document (not JSON Lines) that no agent we read writes ({names()})",
        "log-unknown-document",
        agents=names(),
    )


def detect_format(data: str | bytes, name: str = "") -> str:
    """The agent's key ("claude-code", "codex", "pi", ...), from the first lines that
    say which (or the whole JSON document); raises otherwise."""
    found, head = _sniff(_stream(data), name)
    if found is None:
        raise _unknown(head)
    return found.key


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
    found = agent(log.format)
    fmt = log.format if found is None else found.name
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
    streams: list[tuple[str, LineSource]] = [(name, _stream(data)) for name, data in files]
    if fmt is None:
        found, first = _sniff(streams[0][1], streams[0][0])
        if found is None:
            raise _unknown(first)
        streams[0] = (streams[0][0], first)
    else:
        found = agent(fmt)
        if found is None:
            raise ScenarioError(
                [Problem.of("log format", f"must be one of {', '.join(FORMATS)}", fmt)]
            )
    log = found.read(streams)
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
