"""The compiled skeleton decoder (``budgetcore.replay.logs.compiled.SKELETONS``): any
line, however its keys are typed, gives through the skeleton exactly the full decode's
value cut to the skeleton's keys, or nothing (then the reader decodes it in full).

The oracle is written from the skeletons' declared keys alone: a key kept as it is, a
key with keys under it kept only when it holds an object.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.logs import reader
from tests.property.strategies import json_values, marked

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")

#: Each skeleton's keys, as the agents write them: a key's own keys when the reader looks
#: under it (a value that is not an object then sends the line to the full decode).
SHAPES: dict[str, dict[str, Any]] = {
    "copilot-cli": {
        **dict.fromkeys(
            (
                "type",
                "name",
                "kind",
                "body",
                "_body",
                "traceId",
                "spanId",
                "spanContext",
                "timestamp",
                "observedTimestamp",
                "timeUnixNano",
                "endTime",
                "startTime",
                "hrTime",
                "_hrTime",
                "time",
            )
        ),
        "data": {"modelMetrics": None},
        # Written out here, not taken from the module: the oracle is the reader's keys.
        "attributes": dict.fromkeys(
            (
                "event.name",
                "gen_ai.operation.name",
                "gen_ai.request.model",
                "gen_ai.response.model",
                "gen_ai.response.id",
                "gen_ai.conversation.id",
                "copilot_chat.session_id",
                "copilot_chat.chat_session_id",
                "session.id",
                "github.copilot.interaction_id",
                "gen_ai.usage.input_tokens",
                "gen_ai.usage.output_tokens",
                "gen_ai.usage.cache_read.input_tokens",
                "gen_ai.usage.cache_creation.input_tokens",
                "gen_ai.usage.cache_write.input_tokens",
                "gen_ai.usage.reasoning.output_tokens",
                "gen_ai.usage.reasoning_tokens",
            )
        ),
    },
}


def _cut(value: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    for key, under in shape.items():
        if key not in value:
            continue
        if under is None:
            out[key] = value[key]
        elif isinstance(value[key], dict):
            inner = _cut(value[key], under)
            if inner is None:
                return None
            out[key] = inner
        else:
            return None
    return out


JSON_VALUES = json_values(8, 8)


@st.composite
def shaped(draw: st.DrawFn, shape: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, under in shape.items():
        if draw(st.booleans()):
            continue
        if under is not None and depth < 3 and draw(st.integers(0, 3)):
            out[key] = draw(shaped(under, depth + 1))
        else:
            out[key] = draw(JSON_VALUES)
    # Keys no reader looks at (the texts), skipped by the skeleton.
    out.update(draw(st.dictionaries(st.sampled_from(["text", "content", "x"]), JSON_VALUES)))
    return out


@pytest.mark.parametrize("kind", sorted(SHAPES))
@given(data=st.data())
def test_a_skeleton_line_is_the_full_decode_cut_to_its_keys(kind: str, data: Any) -> None:
    decoder = compiled.skeleton_decoder(kind)
    if decoder is None:
        pytest.skip("the compiled decoder is not offered on this interpreter")
    line = json.dumps(data.draw(shaped(SHAPES[kind]))).encode()
    full = reader.decode_line(line)
    assert isinstance(full, dict)
    batch = compiled.decode_batch(decoder, [line])
    assert batch is not None
    got = compiled.plain(batch)[0]
    expected = _cut(full, SHAPES[kind])
    if got is None:
        # Decoded in full instead: a key that is no object, or a number read as a marker.
        assert expected is None or marked(expected)
    else:
        assert got == expected
        assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in expected.items()}
