"""An Amp thread decoded with its messages' texts skipped (``amp.typed_thread``, where
msgspec is offered) reads as the same thread decoded in full by the standard library,
as the page reads it: the same agent detected, the same ledger and requests, or the
same error. The oracle is the full decode: ``compiled_from`` says no, so every
document is read by ``json.loads`` and asked of every agent, as before the typed
decode.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import read_session, tally
from tests.property.strategies import json_values

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")
needs_decoder = pytest.mark.skipif(
    compiled.amp_decoder() is None,
    reason="the compiled decoder is not offered on this interpreter",
)

COUNT = st.one_of(st.integers(-2, 10**6), st.sampled_from([1.5, "12", None, True, 10**20]))
USAGE = st.fixed_dictionaries(
    {},
    optional={
        "inputTokens": COUNT,
        "outputTokens": COUNT,
        "cacheCreationInputTokens": COUNT,
        "cacheReadInputTokens": COUNT,
        "totalTokens": COUNT,
        "model": st.sampled_from(["claude-sonnet-4-5", " gpt-5 ", "", 3]),
        "timestamp": st.sampled_from(["2026-01-01T00:00:01.000Z", "x", 1767225600, None]),
    },
)
MESSAGE = st.fixed_dictionaries(
    {},
    optional={
        "role": st.sampled_from(["user", "assistant", "info", None, 1]),
        "messageId": st.one_of(st.integers(0, 9), st.sampled_from(["m1", [1], None])),
        "content": json_values(8, 6),
        "usage": st.one_of(USAGE, json_values(4, 3)),
        "model": st.sampled_from(["claude-opus-4-1", None]),
        "timestamp": st.sampled_from(["2026-01-02T00:00:00Z", 0, None]),
        "state": json_values(4, 3),
        # Gemini CLI's mark on its messages.
        "type": st.sampled_from(["gemini", "user"]),
    },
)
EVENT = st.fixed_dictionaries(
    {},
    optional={
        "tokens": st.one_of(
            st.fixed_dictionaries({}, optional={"input": COUNT, "output": COUNT, "total": COUNT}),
            json_values(4, 3),
        ),
        "toMessageId": st.one_of(st.integers(0, 9), st.just("m1")),
        "model": st.sampled_from(["claude-sonnet-4-5", None]),
        "timestamp": st.sampled_from(["2026-01-01T00:00:02Z", None]),
    },
)
THREAD = st.fixed_dictionaries(
    {},
    optional={
        "v": st.integers(0, 3),
        "id": st.sampled_from(["T-1", "thread-b", "", 7, None]),
        "created": st.integers(0, 10**13),
        "title": st.text(max_size=5),
        "messages": st.one_of(
            st.lists(st.one_of(MESSAGE, json_values(4, 2)), max_size=6),
            json_values(4, 3),
        ),
        "usageLedger": st.one_of(
            st.fixed_dictionaries(
                {"events": st.lists(st.one_of(EVENT, st.integers()), max_size=4)}
            ),
            json_values(4, 3),
        ),
        # Other agents' keys (Gemini CLI's, OpenCode's) and one no agent knows.
        "projectHash": st.just("h"),
        "sessionID": st.just("ses_1"),
        "time": st.fixed_dictionaries({"created": st.integers(0, 9)}),
        "tokens": st.fixed_dictionaries({"input": st.integers(0, 9)}),
        "role": st.sampled_from(["assistant", "user"]),
        "other": json_values(4, 2),
    },
)
LAYOUTS = st.sampled_from(
    [
        lambda v: json.dumps(v).encode(),
        lambda v: json.dumps(v, indent=2, ensure_ascii=False).encode(),
        lambda v: b"\xef\xbb\xbf" + json.dumps(v).encode(),
        lambda v: json.dumps(v).replace('"role"', '"role": 1, "role"', 1).encode(),
    ]
)


def outcome(data: bytes, name: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        m.setattr(tally, "compiled_from", lambda line, size=0: fast)
        try:
            return read_session([(name, data)])
        except ScenarioError as exc:
            return (type(exc).__name__, exc.problems, getattr(exc, "agent", None))


@needs_decoder
@given(
    thread=THREAD,
    layout=LAYOUTS,
    name=st.sampled_from(["threads/T-1.json", "x.json"]),
)
def test_a_thread_reads_alike_decoded_typed_or_in_full(
    thread: dict[str, Any], layout: Any, name: str
) -> None:
    data = layout(thread)
    with pytest.MonkeyPatch.context() as mp:
        assert outcome(data, name, True, mp) == outcome(data, name, False, mp)
