"""The hypothesis properties of tests/test_log_reader.py, held beside the other properties
(tests/property/), so each obeys the profiles in tests/conftest.py."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from decimal import Decimal
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, ScenarioError
from budgetcore.replay.logs import _sniff, reader, shapes
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
from tests.log_reader_helpers import (
    ODD_TEXT,
    claude_like,
    claude_three_ways,
    codex_like,
    full_response_item,
    full_token_count,
    needs_compiled,
    oracle,
    rollout_three_ways,
    small_limits,
    stamp_of,
)
from tests.profiles import examples


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


_SETTINGS = settings(
    max_examples=examples(1500), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


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
            out.append(draw(st.one_of(st.none(), st.integers(0, 2 * 10**14), ODD_TEXT)))
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


@st.composite
def long_batches_of_stamps(draw: st.DrawFn) -> list[object]:
    """A whole batch (up to past BATCH_LINES) of stamps in one month of any year from
    1970 to 9999, at any milliseconds: the lanes of every size, with at most one stamp
    spoilt (which sends the batch one by one)."""
    start = draw(st.integers(0, 253_402_300_799_999 - 31 * 86_400_000))
    month = stamp_of(start)[:8]
    first = millis(month + "01T00:00:00.000Z")
    assert first is not None
    span = 28 * 86_400_000 - 1
    n = draw(st.integers(1, 700))
    out: list[object] = [
        stamp_of(first + t)
        for t in sorted(draw(st.lists(st.integers(0, span), min_size=n, max_size=n)))
    ]
    if draw(st.booleans()):
        at, place = draw(st.integers(0, n - 1)), draw(st.integers(0, 23))
        text = str(out[at])
        out[at] = (
            text[:place] + draw(st.sampled_from(list("0123456789-T:.Z x"))) + text[place + 1 :]
        )
    return out


@_SETTINGS
@given(codex_like())
def test_every_line_decodes_to_what_the_standard_decoder_gives(raw: bytes) -> None:
    assert canon(decode_line(raw)) == canon(oracle(raw))


@_SETTINGS
@given(st.binary(max_size=40).map(lambda b: b"{" + b))
def test_arbitrary_bytes_after_a_brace_decode_as_the_standard_decoder_says(raw: bytes) -> None:
    assert canon(decode_line(raw)) == canon(oracle(raw))


@_SETTINGS
@given(codex_like())
def test_a_response_item_shape_reads_what_the_full_decode_reads(raw: bytes) -> None:
    fast = shapes.response_item(raw)
    if fast is not None:
        assert fast == full_response_item(raw)
        assert millis(fast[0]) == millis(full_response_item(raw)[0])  # type: ignore[index]


@_SETTINGS
@given(codex_like())
def test_a_token_count_shape_reads_what_the_full_decode_reads(raw: bytes) -> None:
    fast = shapes.token_count(raw)
    if fast is not None:
        assert fast == full_token_count(raw)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codex_file())
def test_a_rollout_reads_alike_with_and_without_the_shapes(data: bytes) -> None:
    rollout_three_ways("r.jsonl", data)


@settings(max_examples=examples(600), deadline=None)
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


@settings(max_examples=examples(1500), deadline=None)
@given(stamps_of_a_batch())
def test_a_batch_of_stamps_is_timed_as_each_one_is(stamps: list[object]) -> None:
    assert millis_of(stamps) == [millis(s) for s in stamps]
    # Repeated past the few that are read one by one: the batch's passes see each
    # day, hour and spoilt character of it (a batch of one month, as drawn).
    many = stamps * -(-reader._ONE_BY_ONE_BELOW // len(stamps)) if stamps else stamps
    assert millis_of(many) == [millis(s) for s in many]


@settings(max_examples=examples(400), deadline=None)
@given(long_batches_of_stamps())
def test_a_long_batch_of_stamps_is_timed_as_each_one_is(stamps: list[object]) -> None:
    assert millis_of(stamps) == [millis(s) for s in stamps]


@needs_compiled
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=codex_file(), batch=st.sampled_from([1, 2, 3, 7]))
def test_a_rollout_reads_alike_with_the_compiled_decoder_batch_by_batch(
    data: bytes, batch: int
) -> None:
    """Small batches: a batch the compiled decoder may not take (a byte that is not
    UTF-8) stands between ones it takes, and the state they share carries across."""
    with patch.object(reader, "BATCH_LINES", batch):
        rollout_three_ways("r.jsonl", data)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
