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
from collections.abc import Callable
from functools import partial
from itertools import pairwise
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import find

from budgetcore.replay.logs import reader, shapes
from budgetcore.replay.logs.reader import (
    millis_of,
    numbered_batches,
)
from tests.helpers import spied_stream
from tests.log_reader_helpers import (
    CLAUDE_DECODER,
    CODEX_DECODER,
    claude_like,
    claude_three_ways,
    codex_like,
    full_response_item,
    full_token_count,
    needs_compiled,
    rollout_three_ways,
    small_limits,
    stamp_of,
)

try:
    from budgetcore.replay.logs import compiled
except ImportError:  # msgspec is not installed: only the standard library's paths
    compiled = None  # type: ignore[assignment]

# ------------------------------------------------------------------ generated lines

# ------------------------------------------------------------------ the properties


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
    assert shapes.token_count(token) == full_token_count(token) is not None
    assert shapes.response_item(item) == full_response_item(item) == (stamp[14:38], "message")
    for cut in range(len(item) - 2):  # every half-written line is left to the decoder
        assert shapes.response_item(item[:cut]) is None
        assert shapes.token_count(token[:cut]) is None


def test_the_fixtures_read_alike_with_and_without_the_shapes() -> None:
    root = Path(__file__).parent / "fixtures" / "logs" / "codex"
    files = sorted(root.rglob("*.jsonl"))
    assert files
    for path in files:
        rollout_three_ways(path.name, path.read_bytes())


# ------------------------------------------------------------------ reading in batches


def test_a_batch_reads_no_more_than_a_piece_at_a_time() -> None:
    """A line longer than the line limit is read in pieces and skipped, never held."""
    data = b'{"a":1}\n' + b"z" * 5_000 + b"\n" + b'{"b":2}\n'
    stream, reads = spied_stream(data)
    with small_limits(400, 64, 512, None):
        lines = [line for _, batch in numbered_batches(stream) for line in batch]
    assert lines == [b'{"a":1}\n', reader.LONG_LINE, b'{"b":2}\n']
    assert 0 < max(reads) <= 64


def test_the_lines_format_detection_read_open_the_first_batch() -> None:
    """A small session's file is one batch (one decode, one step), its sniffed first
    line no batch of its own; a sniffed line a batch would not read whole keeps its own."""
    from budgetcore.replay.logs import _sniff  # noqa: PLC0415

    first = b'{"type":"session_start","id":"s"}\n'
    rest = [b'{"type":"message","n":%d}\n' % i for i in range(5)]
    agent, stream = _sniff(io.BytesIO(first + b"".join(rest)))
    assert agent is not None
    assert agent.key == "droid"
    assert list(numbered_batches(stream)) == [(1, [first, *rest])]
    with small_limits(400, 16, 512, None):  # the first line is longer than a piece
        agent, stream = _sniff(io.BytesIO(first + b"".join(rest)))
        assert [n for n, _batch in numbered_batches(stream)] == [1, 2]
    others = [b'{"x":%d}\n' % i for i in range(3)]  # no agent's: the sniff reads on
    agent, stream = _sniff(io.BytesIO(b"".join(others) + first + b"".join(rest)))
    assert agent is not None
    with small_limits(400, 400, 3, None):  # more sniffed lines than a batch holds
        assert [n for n, _batch in numbered_batches(stream)] == [1, 2, 3, 4, 5, 8]


# ------------------------------------------------------------------ times of a batch


def test_a_batch_of_stamps_takes_the_fast_form_at_once() -> None:
    """Not vacuous: a month of well-formed stamps is timed without millis."""
    stamps: list[object] = [stamp_of(1_767_225_600_000 + 7_777 * i) for i in range(512)]
    with patch.object(reader, "millis", side_effect=AssertionError("one by one")):
        assert millis_of(stamps) == [1_767_225_600_000 + 7_777 * i for i in range(512)]


def test_a_batch_of_a_few_stamps_is_timed_one_by_one() -> None:
    """A small session's batch skips the batch's passes, which cost more than its few
    stamps read one by one (docs/performance.md, issue 40's per-session round)."""
    stamps: list[object] = [stamp_of(1_767_225_600_000 + 7_777 * i) for i in range(15)]
    with patch.object(reader, "_month_of", side_effect=AssertionError("the batch's passes")):
        assert millis_of(stamps) == [1_767_225_600_000 + 7_777 * i for i in range(15)]


# ------------------------------------------------------------------ the compiled decoder


@needs_compiled
def test_a_shape_s_decoder_is_found_without_hashing_the_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A folder asks for a reader's decoder once per session file: it is kept on its
    shape (Shape.plans), where a cache keyed by the shape hashed every field of it,
    nested shapes too (docs/performance.md, issue 40's per-session round)."""
    from budgetcore.replay.logs import pi, records  # noqa: PLC0415

    first = compiled.record_decoder(pi.LINE)
    assert first is not None

    def refused(_shape: object) -> int:
        raise AssertionError("the shape was hashed")

    monkeypatch.setattr(records.Shape, "__hash__", refused)
    assert compiled.record_decoder(pi.LINE) is first


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
def test_the_compiled_decoder_s_margin_is_a_lower_limit_not_frames_of_calls() -> None:
    """A batch is decoded under a limit lowered by the margin, a frame or two below its
    caller, and the limit is back after it: the margin was 50 frames of calls a batch
    (about 5 µs, once per session file of a folder of small sessions)."""
    assert compiled is not None

    def depth() -> int:
        frame, n = sys._getframe(1), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    limit = sys.getrecursionlimit()
    seen: list[tuple[int, int]] = []

    def decode(raw: bytes) -> bytes:
        seen.append((depth(), sys.getrecursionlimit()))
        return raw

    here = depth()
    assert compiled.decode_batch(decode, [b"{}\n", b"[]\n"]) == [b"{}\n", b"[]\n"]
    assert [lim for _d, lim in seen] == [limit - compiled.DEPTH_MARGIN] * 2
    assert all(d - here <= 4 for d, _lim in seen)
    assert sys.getrecursionlimit() == limit


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


class _StepStream(io.BytesIO):
    step_bytes = reader.STEP_BYTES


@pytest.mark.parametrize("stepped", [False, True])
def test_a_stream_read_in_steps_is_read_in_small_steps_to_the_same_session(stepped: bool) -> None:
    """Step by step, the files' position moves by about STEP_BYTES for a stream that
    asks for steps (the page's import gets its turn often), by whole batches for one
    that does not; the session read is the same either way."""
    from budgetcore.replay.logs import read_session, session_steps  # noqa: PLC0415

    lines = [
        json.dumps({"type": "user", "uuid": f"u{i}", "x": "y" * (300 + i * 37 % 400)})
        for i in range(3_000)
    ]
    data = ("\ufeff" + "\n".join(lines) + "\n").encode()
    stream = _StepStream(data) if stepped else io.BytesIO(data)
    steps = session_steps([("s.jsonl", stream)], require=False)
    at: list[int] = []  # the stream's position after each step
    log = reader.finish(steps, lambda: at.append(stream.tell()))
    assert log.ledger[0].lines == 3_000
    assert log == read_session([("s.jsonl", data)], require=False)
    assert at[-1] == len(data)
    growth = [b - a for a, b in pairwise([0, *at])]
    if stepped:
        assert max(growth) < 3 * reader.STEP_BYTES  # lines of 300 to 700 bytes: a step
        assert len(at) > len(data) // reader.STEP_BYTES
    else:
        assert len(at) <= len(lines) // reader.BATCH_LINES + 2


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


def test_a_whole_document_is_read_in_pieces_not_line_by_line() -> None:
    """A JSON document (an Amp thread, a Gemini CLI chat) is read whole: ``readline``
    took 1.2 ms for a 2.3 MB document on one line and 3.9 ms for one of 30,000 short
    lines, ``read`` 0.15 ms (the fourth many-small round's lead). The lines detection
    read first come first; past the limit is the size error."""
    from budgetcore.errors import ScenarioError  # noqa: PLC0415
    from budgetcore.replay.logs.reader import Replayed  # noqa: PLC0415
    from budgetcore.replay.logs.tally import lines_of  # noqa: PLC0415

    class NoLines(io.BytesIO):
        def readline(self, size: int | None = -1, /) -> bytes:
            raise AssertionError("read line by line")

    body = b'{\n  "a": 1,\n' + b'  "b": "' + b"x" * 5_000_000 + b'"\n}\n'
    assert lines_of(NoLines(body), 1 << 30) == body
    head = [b"{\n", b'  "a": 1,\n']
    assert lines_of(Replayed(list(head), NoLines(body[12:])), 1 << 30) == body
    with pytest.raises(ScenarioError):
        lines_of(NoLines(body), 1_000_000)
    # A stream with readline alone is read as before.
    only = type("Only", (), {"readline": io.BytesIO(body).readline})()
    assert lines_of(only, 1 << 30) == body
