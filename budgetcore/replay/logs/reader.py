"""Reading a log line by line (docs/replay.md, "Reading"): bytes in, one decoded JSON
value per line out, never the whole file in memory.

A binary stream's ``readline`` splits at ``b"\\n"`` only, so U+2028, U+2029 and U+0085
(which JSON allows raw inside strings) stay inside their line, and a byte that is not
UTF-8 spoils its own line, not the file. Numbers go through the one number reader
(:func:`budgetcore.inputs.numbers.read_number`): an absurd exponent becomes a marker
that the field check rejects, never an ``InvalidOperation``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from datetime import UTC, date, datetime
from functools import partial
from itertools import islice
from typing import Any, Protocol, TypeVar

from budgetcore.errors import NonFinite, Problem, ScenarioError
from budgetcore.inputs.numbers import MAX_TOKENS, as_whole, read_number
from budgetcore.inputs.text import limit_of, size_text, too_large

__all__ = [
    "BLANK",
    "COMPILED_FROM_BYTES",
    "COMPILED_FROM_LINE",
    "JSON_SPACE",
    "LONG_LINE",
    "MAX_LINE_BYTES",
    "MAX_LOG_REQUESTS",
    "STEP_BYTES",
    "LineSource",
    "Malformed",
    "Replayed",
    "Steps",
    "at_line",
    "compiled_batches",
    "compiled_from",
    "count_of",
    "decode_line",
    "decoded_lines",
    "finish",
    "format_of",
    "millis",
    "millis_of",
    "numbered_batches",
    "numbered_lines",
    "record_batches",
    "scan",
    "too_many_requests",
    "will_read",
]

#: The most requests one session may hold, every series and file together. A real
#: session has hundreds to a few thousand; a log's numbers take about 200 bytes per
#: request, so the cap bounds the memory at a few hundred MB, like the turn cap does.
MAX_LOG_REQUESTS = 1_000_000

BLANK = object()  # a line with nothing but white space

T = TypeVar("T")

#: A reader in steps (docs/replay.md, "Reading"): a generator that yields after each
#: batch of records it has taken in (nothing, just the chance to stop there) and
#: returns what it read. The page's import job takes as many steps as fit a frame and
#: comes back for the rest; :func:`finish` takes them all at once (the CLI). The
#: reader stays a function of its input alone: stopping between steps changes nothing
#: it reads or counts.
Steps = Generator[None, None, T]


def finish(steps: Generator[object, None, T], each: Callable[[], None] | None = None) -> T:
    """Every step of ``steps``, at once: what the reader returns. ``each``: called
    after every step (the CLI's progress line reads how far its files are read)."""
    try:
        while True:
            next(steps)
            if each is not None:
                each()
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


#: The bytes a batch of :func:`numbered_batches` holds, about, for a stream that is
#: read in steps (``step_bytes`` on the stream, the page's import job): a batch is
#: under a frame of work in the browser (Pyodide reads about 7 MB of log a second).
STEP_BYTES = 64 * 1024


class LineSource(Protocol):
    """Anything with a binary ``readline`` (a file, ``io.BytesIO``, standard input)."""

    def readline(self, size: int = -1, /) -> bytes: ...


class Malformed:
    """A line that is not a JSON object, and why (English; the ledger lists it)."""

    __slots__ = ("problem",)

    def __init__(self, code: str, /, **params: object) -> None:
        self.problem = Problem.coded("", code, **params)

    @property
    def reason(self) -> str:
        return self.problem.rule


def at_line(file: str, number: int, inner: Problem) -> Problem:
    """``inner`` (its path the key within the line, "" for the whole line) said of line
    ``number`` of a log file (``file`` "" for the session's own file): as the CLI prints
    it, ``[file ]line N[: key] rule``, and as data for the page (the line, the key and
    the file as parameters beside its code)."""
    key = inner.path
    path = f"{file + ' ' if file else ''}line {number}{': ' + key if key else ''}"
    params = [("line", str(number))]
    if key:
        params.append(("key", key))
    if file:
        params.append(("file", file))
    return dataclasses.replace(inner, path=path, params=(*inner.params, *params))


#: The decoder's C scanner, called directly: ``JSONDecoder.decode`` adds two Python
#: calls and two regular-expression matches per line around this one call, for the same
#: answer (:func:`decode_line` does its white-space rule; tests/test_log_reader.py
#: checks the two agree on every line).
scan: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(
    parse_float=read_number, parse_constant=NonFinite
).scan_once  # type: ignore[attr-defined]
JSON_SPACE = " \t\n\r"


#: A line longer than this is malformed and skipped (read in pieces, never held): no
#: real log line comes near it, and it keeps one read from holding the whole limit.
MAX_LINE_BYTES = limit_of("log-line")
#: What :func:`numbered_lines` yields for a line over :data:`MAX_LINE_BYTES`.
LONG_LINE = b"\x00 a line longer than the limit"


class Replayed:
    """A stream whose first lines were read already (format detection): they are given
    again before the rest. :func:`numbered_lines` takes them apart, so the rest is read
    with the stream's own ``readline``, not through a wrapper per line."""

    __slots__ = ("head", "rest")

    def __init__(self, head: list[bytes], rest: LineSource) -> None:
        self.head = head
        self.rest = rest

    def readline(self, size: int = -1, /) -> bytes:
        if self.head:
            return self.head.pop(0)
        return self.rest.readline(size)


def numbered_lines(stream: LineSource, what: str = "log") -> Iterator[tuple[int, bytes]]:
    """(1-based line number, the line's bytes) for every line, a leading byte-order
    mark dropped; :data:`LONG_LINE` for a line over :data:`MAX_LINE_BYTES`. Stops with
    the size error past ``SIZE_LIMITS[what]``: a stream without a newline (/dev/zero, a
    binary file) ends at the limit, not when the memory runs out."""
    limit = limit_of(what)
    seen = 0
    number = 0
    head: list[bytes] = []
    if isinstance(stream, Replayed):
        head, stream = list(stream.head), stream.rest
        head.reverse()
    readline = stream.readline
    most = MAX_LINE_BYTES + 1  # one byte more than a line may have: it says "too long"
    while True:
        # A line read before (format detection) was read with the same size rule.
        room = limit - seen
        raw = head.pop() if head else readline(most if room > MAX_LINE_BYTES else room + 1)
        if not raw:
            return
        number += 1
        raw, seen = _finish_line(raw, number, seen, limit, readline, what=what)
        yield number, raw


#: Lines read per batch by :func:`numbered_batches`, and the most bytes one read of a
#: batch takes (a longer line is put together from its pieces): one batch holds at most
#: their product, 64 MiB, as one line may.
BATCH_LINES = 512
PIECE_BYTES = 1 << 17
_BOM = b"\xef\xbb\xbf"


def numbered_batches(stream: LineSource, what: str = "log") -> Iterator[tuple[int, list[bytes]]]:
    """The lines of :func:`numbered_lines`, a batch at a time: (the number of the
    batch's first line, its lines). The same lines, markers, numbers and size error, in
    the same order; a batch is read by one loop in C (``readline`` through
    ``itertools.islice``), not by a Python step per line (docs/replay.md, "Speed").
    A line longer than :data:`PIECE_BYTES` arrives in pieces and is put together, or
    becomes :data:`LONG_LINE` past :data:`MAX_LINE_BYTES`, as numbered_lines has it."""
    limit = limit_of(what)
    number = 0  # lines given so far
    seen = 0
    head: list[bytes] = []
    if isinstance(stream, Replayed):
        head, stream = list(stream.head), stream.rest
    readline = stream.readline
    piece = min(PIECE_BYTES, MAX_LINE_BYTES + 1)
    capped = getattr(stream, "readlines_capped", None)
    take: Callable[[int, int], list[bytes]] = capped or partial(_capped, readline)
    # A stream read in steps (the page's import job) asks for batches of about its
    # step_bytes, so that a step stops within its frame; else as many lines as a batch
    # takes.
    step: int = getattr(stream, "step_bytes", 0)
    count = 16 if step else BATCH_LINES
    # Format detection read these with numbered_lines's size rule. Lines a batch could
    # have read as they are (no more than its count, each shorter than a piece, none the
    # stream's end) open the first batch: a small session's file is then one batch, not
    # its sniffed line and the rest (each batch is a decode and a step; a folder of
    # 2,000 small sessions).
    pending: list[bytes] = []
    if head and len(head) <= count and all(head) and max(map(len, head)) < piece:
        pending = head
    elif head:
        # Else their rules apply a line at a time (the size error after the lines before).
        for raw in head:
            if not raw:  # the stream ended within them
                return
            number += 1
            line, seen = _finish_line(raw, number, seen, limit, readline, what=what)
            yield number, [line]
    while True:
        batch: list[bytes] = take(piece, count - len(pending)) if count > len(pending) else []
        if pending:
            batch[:0] = pending
            pending = []
        if not batch:
            return
        sizes = list(map(len, batch))
        total = sum(sizes)
        if step:  # as many lines next as made about step bytes here, at most twice
            count = max(1, min(BATCH_LINES, 2 * count, count * step // max(total, 1)))
        if (
            seen + total <= limit
            and max(sizes) < piece  # every one a whole line (or the last)
            and not (number == 0 and batch[0].startswith(_BOM))
        ):
            seen += total
            yield number + 1, batch
            number += len(batch)
            continue
        # Slowly: a long line in pieces, a byte-order mark, or the size limit within.
        out: list[bytes] = []
        first = number + 1
        at = 0
        while at < len(batch):
            raw = batch[at]
            at += 1
            seen += len(raw)
            if seen > limit:
                if out:
                    yield first, out
                raise too_large(what, limit)
            size = len(raw)
            parts: list[bytes] | None = [raw]
            while len(raw) == piece and not raw.endswith(b"\n"):  # a piece of a line
                if at < len(batch):  # its next piece, read already
                    raw = batch[at]
                    at += 1
                else:
                    raw = readline(piece)
                    if not raw:
                        break
                seen += len(raw)
                if seen > limit:
                    if out:
                        yield first, out
                    raise too_large(what, limit)
                size += len(raw)
                if parts is not None:  # past the line limit its bytes are not kept
                    if size > MAX_LINE_BYTES:
                        parts = None
                    else:
                        parts.append(raw)
            number += 1
            if parts is None or size > MAX_LINE_BYTES:
                out.append(LONG_LINE)
                continue
            line = parts[0] if len(parts) == 1 else b"".join(parts)
            if number == 1 and line.startswith(_BOM):
                line = line[3:]
            out.append(line)
        yield first, out


#: A log read with the compiled decoder only from this line, or from the batch with
#: which the process's logs reach this many bytes, on: below both, importing msgspec
#: (about 10 ms) costs more than it saves. Bytes count too because the standard
#: decoder's cost is in the bytes: it reads a Claude Code line's texts, which msgspec
#: skips (about 30 ms for the 2,000 lines of 2.6 kB of a long session); and they count
#: over the process, because the import is paid once: a folder of small sessions,
#: each below both, is read compiled from its first megabyte (docs/replay.md, "Speed").
COMPILED_FROM_LINE = 2_000
COMPILED_FROM_BYTES = 1 << 20
_READ = [0]  # bytes the readers of this process took before the compiled decoder


def compiled_from(line: int, batch: int = 0) -> bool:
    """Whether the compiled decoder reads from this batch on: the log has reached
    ``line`` lines, or with this batch's ``batch`` bytes the process's logs have
    reached :data:`COMPILED_FROM_BYTES`, or msgspec is loaded already (its cost paid).
    Only the speed depends on it, never an answer."""
    _READ[0] += batch
    return line >= COMPILED_FROM_LINE or _READ[0] >= COMPILED_FROM_BYTES or "msgspec" in sys.modules


def will_read(size: int) -> None:
    """The process is about to read ``size`` bytes of logs (a folder's session files, as
    its walk found them): from :data:`COMPILED_FROM_BYTES` on, :func:`compiled_from`
    says yes from the first of them, as it would once they had been read. A folder of
    small sessions read its first megabyte with the standard library, in each process
    that reads it, when its size was known from the start (docs/performance.md, issue
    40's fifth many-small round). Only the speed depends on it, never an answer."""
    _READ[0] += size


def compiled_batches(kind: str, decoder: Any = None) -> Callable[[list[bytes]], Any] | None:
    """The compiled decoder of ``kind`` ("codex" or "claude-code") lines, as a batch
    decoder (:func:`budgetcore.replay.logs.compiled.decode_batch`); None without
    msgspec, where it is not offered, or when the stack is too deep for its guard.
    ``decoder``: that line decoder instead of the format's own."""
    try:
        from budgetcore.replay.logs import compiled  # noqa: PLC0415 (msgspec, on demand)
    except ImportError:
        return None
    if decoder is None:
        decoder = compiled.codex_decoder() if kind == "codex" else compiled.claude_decoder()
    if decoder is None or not compiled.stack_room():
        return None
    return partial(compiled.decode_batch, decoder)


def skeleton_batches(kind: str) -> Callable[[list[bytes]], Any] | None:
    """The compiled skeleton decoder of an agent's lines (``compiled.SKELETONS``) as a
    batch decoder giving dicts (None for a line to decode in full), or None, as
    :func:`compiled_batches`."""
    try:
        from budgetcore.replay.logs import compiled  # noqa: PLC0415 (msgspec, on demand)
    except ImportError:
        return None
    decoder = compiled.skeleton_decoder(kind)
    if decoder is None or not compiled.stack_room():
        return None
    decode = partial(compiled.decode_batch, decoder)

    def batches(batch: list[bytes]) -> list[Any] | None:
        structs = decode(batch)
        return None if structs is None else compiled.plain(structs)

    return batches


def record_batches(shape: Any) -> Callable[[list[bytes]], list[Any] | None] | None:
    """The compiled decoder of a reader's records (``records.Shape``) as a batch
    decoder (a struct per line, None for a line to decode in full; None for a batch it
    may not take), or None, as :func:`compiled_batches`."""
    try:
        from budgetcore.replay.logs import compiled  # noqa: PLC0415 (msgspec, on demand)
    except ImportError:
        return None
    decoder = compiled.record_decoder(shape)
    if decoder is None or not compiled.stack_room():
        return None
    return partial(compiled.decode_batch, decoder)


def _capped(readline: Callable[[int], bytes], size: int, count: int) -> list[bytes]:
    """Up to ``count`` successive ``readline(size)``, fewer at the end of the stream."""
    return list(islice(iter(partial(readline, size), b""), count))


def _finish_line(
    raw: bytes, number: int, seen: int, limit: int, readline: Callable[[int], bytes], *, what: str
) -> tuple[bytes, int]:
    """numbered_lines's rules for one line read with its size rule: (the line as given,
    the bytes seen after it)."""
    size = len(raw)
    seen += size
    if seen > limit:
        raise too_large(what, limit)
    if size > MAX_LINE_BYTES:
        while not raw.endswith(b"\n"):  # the rest of the line, piece by piece
            raw = readline(min(MAX_LINE_BYTES, limit - seen) + 1)
            seen += len(raw)
            if seen > limit:
                raise too_large(what, limit)
            if not raw:
                break
        return LONG_LINE, seen
    if number == 1 and raw.startswith(_BOM):
        raw = raw[3:]
    return raw, seen


def decoded_lines(stream: LineSource, what: str = "log") -> Iterator[tuple[int, object]]:
    """(1-based line number, value) for every line: a dict, :data:`BLANK` or a
    :class:`Malformed`."""
    value = decode_line
    for number, raw in numbered_lines(stream, what):
        yield number, value(raw)


def decode_line(raw: bytes) -> object:
    """One line's value: a dict, :data:`BLANK` or a :class:`Malformed`."""
    if raw is LONG_LINE:
        return Malformed("log-line-too-long", limit=size_text(MAX_LINE_BYTES))
    if raw[:1] != b"{" and not raw.strip():  # a line that opens an object is not blank
        return BLANK
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Malformed("log-line-not-utf8", byte=exc.start + 1)
    start = 0
    if text[:1] in JSON_SPACE:
        start = len(text) - len(text.lstrip(JSON_SPACE))
    try:
        obj, end = scan(text, start)
    except RecursionError:
        return Malformed("log-line-too-deep")
    except (ValueError, StopIteration):  # bad JSON, no value, or too many digits for int()
        return Malformed("log-line-not-json")
    if end != len(text) and text[end:].strip(JSON_SPACE):
        return Malformed("log-line-not-json")  # more after the value
    if type(obj) is not dict:
        return Malformed("log-line-not-object")
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
    if "payload" in obj and type(kind) is str and kind in _CODEX_TYPES:  # a list is no key
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


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


_DAYS: dict[str, int] = {}
_MINUTES: dict[str, int] = {}


def millis(raw: object) -> int | None:
    """An entry's time as whole milliseconds since the epoch, exactly: ISO-8601 text
    (``Z`` or an offset; no offset is UTC; digits below a millisecond are dropped, a
    floor), or epoch seconds / milliseconds as a JSON integer (headless Codex). None
    when absent or unreadable."""
    if isinstance(raw, str):
        # The form both tools write, 2026-01-20T09:00:05.123Z, without a datetime: the
        # minute from a memo, then the seconds and milliseconds.
        if len(raw) == 24 and raw[19] == "." and raw[23] == "Z" and raw[16] == ":":
            minute = _MINUTES.get(raw[:16])
            if minute is None:
                minute = _minute(raw[:16])
            tail = raw[17:19] + raw[20:23]
            if minute is not None and tail.isdigit() and tail.isascii() and tail[0] < "6":
                return minute + int(tail)
        if not 10 <= len(raw) <= 40:
            return None
        try:
            when = datetime.fromisoformat(raw)
        except ValueError:
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        delta = when - _EPOCH
        return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000
    if type(raw) is int and 0 <= raw < 10**14:
        return raw * 1000 if raw < 10**11 else raw
    return None


def millis_of(stamps: Sequence[object]) -> list[int | None]:
    """``[millis(s) for s in stamps]``, in a few dozen passes in C over the whole batch
    when all of them have the form both tools write (2026-01-20T09:00:05.123Z) and one
    month (:func:`_month_of`); anything else, and a batch of a few, is read one by
    one."""
    n = len(stamps)
    if n < _ONE_BY_ONE_BELOW:
        return list(map(millis, stamps))
    try:
        text = "".join(stamps)  # type: ignore[arg-type]  # TypeError: not all texts
    except TypeError:  # a line without a time, or with a number: those one by one
        texts: list[object] = [s for s in stamps if type(s) is str]
        if not texts:
            return list(map(millis, stamps))
        found = iter(millis_of(texts))
        return [next(found) if type(s) is str else millis(s) for s in stamps]
    if not (n and len(text) == 24 * n and text.isascii()):
        return list(map(millis, stamps))
    if min(map(len, stamps)) != 24:  # type: ignore[arg-type]
        return list(map(millis, stamps))
    times: list[int | None] | None = _month_of(text.encode("ascii"), n)  # type: ignore[assignment]
    return list(map(millis, stamps)) if times is None else times


#: Fewer stamps than this are read one by one (:func:`millis`): the batch's passes cost
#: about 7 µs whatever the count, a stamp about 0.5 µs (a small session's file, a
#: Droid settings document: one short batch each).
_ONE_BY_ONE_BELOW = 16

#: Each of a stamp's places: its column in a batch, and what one unit of it is worth in
#: milliseconds (a two-digit column pair read as one number).
_PLACES = ((8, 86_400_000), (11, 3_600_000), (14, 60_000), (17, 1_000), (21, 1))
_DIGITS = b"0123456789"
_VALUES = bytes.maketrans(_DIGITS, bytes(range(10)))
_UNDER = [bytes(range(k)) for k in range(101)]  # the byte values below k
_ONES: dict[int, int] = {}  # n -> the integer with 1 in each of n 64-bit lanes


def _month_of(raw: bytes, n: int) -> list[int] | None:
    """The times of ``n`` stamps of 24 ASCII bytes each, joined, when every one is
    millis's fast form in one month (a date that exists, hours to 23, minutes and
    seconds to 59, three digits of milliseconds, then ``Z``, the month from 1970 on);
    else None. Every check is a pass in C over one column of the batch (a byte of each
    stamp); the sum is integer arithmetic on lanes: each field's values go in the low
    byte of one 64-bit lane per stamp, that integer times the field's unit is added
    up, and the lanes are the times (each below 2^63, so no lane carries into the next;
    tests/test_log_reader.py holds it equal to millis, stamp by stamp)."""
    month = _month_base(raw[:8])
    if month is None or month[0] < 86_400_000 or sys.byteorder != "little":
        return None  # (the lanes are read as native 64-bit integers)
    base, days = month
    for k in range(8):  # the same year and month in every stamp
        if raw[k::24] != raw[k : k + 1] * n:
            return None
    for k, mark in ((10, b"T"), (13, b":"), (16, b":"), (19, b"."), (23, b"Z")):
        if raw[k::24] != mark * n:
            return None
    # Every other byte is a digit: the year's and month's are, and the marks and two
    # dashes are all that is left (7 a stamp).
    if len(raw.translate(None, _DIGITS)) != 7 * n:
        return None
    values = raw.translate(_VALUES)
    big = int.from_bytes  # big-endian: one byte of the integer per stamp, in order
    fields: list[tuple[bytes, int]] = []
    for (k, unit), top in zip(_PLACES, (days + 1, 24, 60, 60, 100), strict=True):
        field = (big(values[k::24]) * 10 + big(values[k + 1 :: 24])).to_bytes(n)  # < 100
        low = 1 if k == 8 else 0  # a day of the month from 1
        if field.translate(None, _UNDER[top][low:]):
            return None  # a day past the month's end, an hour past 23, ...
        fields.append((field, unit))
    fields.append((values[20::24], 100))  # the hundreds of milliseconds
    lane = bytearray(8 * n)
    total = 0
    for field, unit in fields:
        lane[::8] = field  # little-endian lanes: the field is each lane's low byte
        total += unit * big(lane, "little")
    ones = _ONES.get(n)
    if ones is None:
        ones = ((1 << (64 * n)) - 1) // ((1 << 64) - 1)
        if len(_ONES) < 1_000:
            _ONES[n] = ones
    total += (base - 86_400_000) * ones  # the month's start, less the day counted from 1
    return memoryview(total.to_bytes(8 * n, "little")).cast("Q").tolist()


_MONTHS: dict[bytes, tuple[int, int] | None] = {}


def _month_base(head: bytes) -> tuple[int, int] | None:
    """(ms since the epoch of the first, days in the month) of b"YYYY-MM-"; None if
    it names no month."""
    found = _MONTHS.get(head, ())
    if found != ():
        return found  # type: ignore[return-value]
    found = None
    text = head.decode("ascii")
    if text[:4].isdigit() and text[5:7].isdigit() and text[4] == text[7] == "-":
        try:
            first = datetime.fromisoformat(text + "01").date()
        except ValueError:
            first = None
        if first is not None:
            days = 31
            if first.month < 12:
                days = (date(first.year, first.month + 1, 1) - first).days
            found = ((first - _EPOCH.date()).days * 86_400_000, days)
    if len(_MONTHS) < 10_000:
        _MONTHS[head] = found
    return found


def _minute(text: str) -> int | None:
    """Milliseconds since the epoch of YYYY-MM-DDTHH:MM (memoised: a session spans a
    few thousand minutes at most)."""
    if not (text[10] == "T" and text[13] == ":" and text[:10].count("-") == 2):
        return None
    day = _DAYS.get(text[:10])
    if day is None:
        try:
            day = (datetime.fromisoformat(text[:10]).date() - _EPOCH.date()).days
        except ValueError:
            return None
        if len(_DAYS) < 10_000:
            _DAYS[text[:10]] = day
    hours, minutes = text[11:13], text[14:16]
    if not (hours + minutes).isdigit() or not (hours + minutes).isascii():
        return None
    if int(hours) > 23 or int(minutes) > 59:
        return None
    found = ((day * 24 + int(hours)) * 60 + int(minutes)) * 60_000
    if len(_MINUTES) < 100_000:
        _MINUTES[text] = found
    return found


def too_many_requests(limit: int = MAX_LOG_REQUESTS) -> ScenarioError:
    return ScenarioError(
        [
            Problem.coded(
                "log",
                "log-too-many-requests",
                limit=f"{limit:,}",
            )
        ]
    )
