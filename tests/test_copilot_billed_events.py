"""An events.jsonl whose session Copilot CLI's session store bills (docs/replay.md,
"Copilot CLI: one source per session"): its lines counted by kind from a typed decode
(copilot_store.billed_events, speed40n) to the same ledger as the full read, which
gives them again wherever a line does not fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from budgetcore.replay.logs import NoRequests, copilot_store, read_session, tally

try:
    from budgetcore.replay.logs import compiled
except ImportError:  # msgspec is not installed: only the standard library's paths
    compiled = None  # type: ignore[assignment]

STORE = Path(__file__).resolve().parent / "fixtures" / "logs" / "copilot" / "store" / "copilot"
EVENTS = "session-state/session-1/events.jsonl"  # a session the store bills

_START = b'{"type":"session.start","data":{"sessionId":"session-1"},"timestamp":"t"}\n'
_MESSAGE = b'{"type":"assistant.message","data":{"content":"placeholder"},"timestamp":"t"}\n'
_SHUTDOWN = (
    b'{"type":"session.shutdown","data":{"modelMetrics":{"m":{"usage":'
    b'{"inputTokens":10,"outputTokens":2}}}},"timestamp":"t"}\n'
)
_COMPACTED = (
    b'{"type":"session.compaction_complete","data":{"compactionTokensUsed":'
    b'{"inputTokens":5,"outputTokens":1}},"timestamp":"t"}\n'
)

#: (name, the file's bytes, whether every line fits the typed decode)
CASES = [
    ("events", _START + _MESSAGE * 3 + _COMPACTED + _SHUTDOWN, True),
    ("no shutdown metrics", _START + b'{"type":"session.shutdown","data":{}}\n', True),
    ("a type that is a list", _START + b'{"type":[1],"data":{}}\n' + _SHUTDOWN, True),
    ("a type that is an object", _START + b'{"type":{"a":1},"data":{}}\n', True),
    ("an empty object", _START + b"{}\n" + _SHUTDOWN, True),
    ("many batches", _START + _MESSAGE * 1_500 + _SHUTDOWN, True),
    ("no line", b"", True),
    ("a blank line", _START + b"\n" + _SHUTDOWN, False),
    ("a malformed line", _START + b'{"type":\n' + _SHUTDOWN, False),
    ("data no object", _START + b'{"type":"user.message","data":"x"}\n' + _SHUTDOWN, False),
    ("an array", _START + b"[1]\n" + _SHUTDOWN, False),
    ("a late malformed line", _START + _MESSAGE * 1_500 + b"{\n", False),
    (
        "a compaction",
        _START + b'{"type":"session.compaction_start","data":{},"timestamp":"t"}\n' + _SHUTDOWN,
        False,
    ),
    (
        "OpenTelemetry attributes",
        _START + b'{"attributes":{"gen_ai.usage.input_tokens":3},"name":"chat"}\n',
        False,
    ),
]


def _read(events: bytes) -> Any:
    """The events.jsonl read with the store beside it (layouts.plan_copilot): the error
    it raises (no request: every line a copy or an event of the store's session) with
    what it says and counts, or the session read."""
    store = (STORE / "session-store.db").read_bytes()
    try:
        return read_session([(EVENTS, events), ("session-store.db", store)])
    except NoRequests as exc:
        return (exc.problems, exc.lines, exc.costs_nothing, exc.agent)


@pytest.mark.parametrize(("events", "fits"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_store_billed_events_file_reads_the_same_typed_and_in_full(
    events: bytes, fits: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The typed decode, forced on, against the standard library's full read (the
    page's): the same error, problems, line counts and kinds. Where every line fits, no
    line is made a dict (compiled.plain is never called)."""
    with monkeypatch.context() as m:
        m.setenv("BUDGETCORE_PURE_PYTHON", "1")
        plain = _read(events)
    if compiled is None or compiled.copilot_kind_decoder() is None:
        pytest.skip("the compiled decoder is not installed")
    made: list[int] = []
    original = compiled.plain

    def plain_counted(structs: list[Any]) -> Any:
        made.append(len(structs))
        return original(structs)

    with monkeypatch.context() as m:
        m.setattr(copilot_store, "compiled_from", lambda line, size=0: True)
        m.setattr(tally, "compiled_from", lambda line, size=0: True)
        m.setattr(compiled, "plain", plain_counted)
        fast = _read(events)
    assert fast == plain
    assert (made == []) is fits


def test_an_event_whose_type_is_a_list_is_an_event_of_the_store_s_session() -> None:
    """A line whose ``type`` is a list, in an events.jsonl whose session the store
    bills, stopped the read with an internal error ("unhashable type: 'list'"): it is
    an event of that session, as any line without a usage."""
    found = _read(_START + b'{"type":[1],"data":{}}\n' + _SHUTDOWN)
    problems, lines, free, agent = found
    assert (lines, free, agent) == (3, True, "copilot-cli")
    counts = {p.code: p.counts for p in problems}
    assert counts["log-no-requests"] == (("event of a session the session store bills", 2),)
    assert counts["log-no-requests-elsewhere"] == (("a session the session store bills", 1),)


def test_a_problem_s_message_is_made_when_said_the_same_and_it_pickles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ScenarioError renders its one line when said (str), not when raised: a
    folder's read raises one for each session with no request (every events.jsonl the
    store bills) and keeps its problems alone. The text is the same, and it pickles (a
    worker process sends its exception to the parent, cli.pool)."""
    import pickle  # noqa: PLC0415

    from budgetcore import messages  # noqa: PLC0415
    from budgetcore.errors import ScenarioError  # noqa: PLC0415

    said: list[str] = []
    original = messages.problem_rule

    def counted(*args: Any, **kwargs: Any) -> str:
        said.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(messages, "problem_rule", counted)
    store = (STORE / "session-store.db").read_bytes()
    with pytest.raises(NoRequests) as raised:
        read_session([(EVENTS, _START + _SHUTDOWN), ("session-store.db", store)])
    assert said == []
    text = str(raised.value)
    assert text.startswith("log has no usable request in this Copilot CLI file: lines read: 2")
    assert said
    error = ScenarioError(list(raised.value.problems))
    back = pickle.loads(pickle.dumps(error))
    assert (str(back), back.problems) == (text, error.problems)
