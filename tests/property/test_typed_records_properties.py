"""One record shape per reader, two decodings (docs/replay.md, "Speed"): the typed
struct the compiled decoder makes of a line's bytes (``compiled.TYPED``) has, for any
line it takes, the attributes and values of the record the reader's adapter makes of
the standard library's full decode (``gemini.Record``, ``qwen.Record``); a line in the
agent's ordinary shape is always taken; and a session read through either is the same
session, ledger and problems and all.

The lines are drawn in each agent's real shape (gemini-cli
``packages/core/src/services/chatRecordingService.ts``: a metadata line, message
records written again as they change, ``$set`` and ``$rewindTo`` lines; qwen-code's
``chatRecordingService.ts`` ``ChatRecord``: a tree of ``uuid`` / ``parentUuid``,
``usageMetadata`` on assistant records, ``systemPayload`` on system ones), every field
now and then holding any JSON value instead, beside lines that are blank, not JSON or
not UTF-8.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetcore.errors import NonFinite, Problem
from budgetcore.replay.logs import qwen, read_session, reader, tally
from budgetcore.replay.logs.model import ABSENT
from budgetcore.replay.logs.reader import decode_line
from tests.profiles import examples

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    # A float here is only a way to write a decimal literal into the line.
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)

#: A count as the agents write it, and the values next to the rule's edges.
COUNTS = st.integers(min_value=0, max_value=10**6) | st.sampled_from(
    [0, 10**12, 10**12 + 1, -1, None, 12.0, True, "12"]
)
STAMPS = st.sampled_from(
    [
        "2026-01-01T00:00:01.000Z",
        "2026-01-01T00:00:01.500Z",
        "2026-02-28T23:59:59.999Z",
        "2026-01-01T00:00:01Z",
        "2026-01-01T00:00:01.123456+02:00",
        "not a time",
        1767225600,
        1767225600123,
    ]
)


def maybe(typed: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """The field as the agent writes it, now and then any JSON value."""
    return st.one_of(typed, typed, typed, JSON_VALUES)


@st.composite
def keyed(draw: st.DrawFn, fields: dict[str, st.SearchStrategy[Any]]) -> dict[str, Any]:
    """Some of ``fields`` (each present or not), and a text no reader reads."""
    out = {key: draw(value) for key, value in fields.items() if draw(st.booleans())}
    if draw(st.booleans()):
        out["content"] = draw(st.text(max_size=20))
    return out


# ---------------------------------------------------------------- Qwen Code

QWEN_IDS = st.sampled_from(["u1", "u2", "u3", "u4", "u5"])
QWEN_USAGE = keyed(
    dict.fromkeys(
        (
            "promptTokenCount",
            "cachedContentTokenCount",
            "candidatesTokenCount",
            "thoughtsTokenCount",
            "toolUsePromptTokenCount",
            "totalTokenCount",
        ),
        COUNTS,
    )
)
QWEN_PAYLOADS = st.one_of(
    st.fixed_dictionaries({"info": keyed({"originalTokenCount": COUNTS, "newTokenCount": COUNTS})}),
    st.fixed_dictionaries({"uiEvent": st.fixed_dictionaries({"event.name": st.text(max_size=5)})}),
)
QWEN_KINDS = ["user", "assistant", "assistant", "tool_result", "system"]
QWEN_SUBTYPES = ["chat_compression", "ui_telemetry", "slash_command", "at_command"]


@st.composite
def qwen_line(draw: st.DrawFn) -> dict[str, Any]:
    return draw(
        keyed(
            {
                "uuid": maybe(QWEN_IDS),
                "parentUuid": maybe(st.none() | QWEN_IDS),
                "sessionId": st.just("s"),
                "timestamp": maybe(STAMPS),
                "type": maybe(st.sampled_from(QWEN_KINDS)),
                "subtype": maybe(st.sampled_from(QWEN_SUBTYPES)),
                "model": maybe(st.sampled_from(["qwen3-coder-plus", " gpt-5 ", ""])),
                "usageMetadata": maybe(QWEN_USAGE),
                "systemPayload": maybe(QWEN_PAYLOADS),
            }
        )
    )


@st.composite
def qwen_typical(draw: st.DrawFn) -> dict[str, Any]:
    """A chat record as Qwen Code writes it, every field of its type."""
    kind = draw(st.sampled_from(QWEN_KINDS))
    out: dict[str, Any] = {
        "uuid": draw(QWEN_IDS),
        "parentUuid": draw(st.none() | QWEN_IDS),
        "sessionId": "s",
        "timestamp": draw(STAMPS),
        "type": kind,
        "message": {"role": "user", "parts": [{"text": draw(st.text(max_size=20))}]},
    }
    counts = st.integers(min_value=0, max_value=10**6)
    if kind == "assistant":
        out["model"] = "qwen3-coder-plus"
        out["usageMetadata"] = draw(
            keyed(
                dict.fromkeys(
                    (
                        "promptTokenCount",
                        "candidatesTokenCount",
                        "cachedContentTokenCount",
                        "thoughtsTokenCount",
                        "totalTokenCount",
                    ),
                    counts,
                )
            )
        )
    if kind == "system":
        out["subtype"] = draw(st.sampled_from(QWEN_SUBTYPES))
        out["systemPayload"] = {"info": {"originalTokenCount": draw(counts), "newTokenCount": 1}}
    return out


# ---------------------------------------------------------------- the agents


@dataclass(frozen=True)
class Agent:
    key: str  # the reader's format and its TYPED key
    record: Callable[[dict[str, Any]], Any]  # the reader's adapter
    fields: tuple[str, ...]  # the record's attributes
    nested: dict[str, tuple[str, ...]]  # an attribute holding a record of its own
    line: st.SearchStrategy[dict[str, Any]]
    typical: st.SearchStrategy[dict[str, Any]]
    name: str  # the session's file name


AGENTS = {
    "qwen-code": Agent(
        "qwen-code",
        qwen.Record,
        qwen.Record.__slots__,
        {"usage": qwen.Usage._fields, "systemPayload": qwen.Payload._fields},
        qwen_line(),
        qwen_typical(),
        "chats/s.jsonl",
    ),
}


def canon(value: object) -> object:
    """A value with its types spelt out (1, True, 1.0 and Decimal 1 all differ)."""
    if value is ABSENT:
        return ("absent",)
    if isinstance(value, Problem):
        return ("problem", value)
    if isinstance(value, dict):
        return ("dict", [(k, canon(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [canon(v) for v in value])
    if isinstance(value, NonFinite):
        return ("nonfinite", value.text)
    if isinstance(value, Decimal):
        return ("decimal", str(value))
    return (type(value).__name__, value)


def shape(agent: Agent, record: Any) -> list[tuple[str, object]]:
    out = []
    for name in agent.fields:
        value = getattr(record, name)
        if name in agent.nested and value is not None and not isinstance(value, Problem):
            value = ("record", [(k, canon(getattr(value, k))) for k in agent.nested[name]])
        else:
            value = canon(value)
        out.append((name, value))
    return out


def _typed(agent: Agent, raw: bytes) -> Any:
    decoder = compiled.typed_decoder(agent.key)
    if decoder is None:
        pytest.skip("the compiled decoder is not offered on this interpreter")
    batch = compiled.decode_batch(decoder, [raw])
    return None if batch is None else batch[0]


@pytest.mark.parametrize("key", sorted(AGENTS))
@settings(max_examples=examples(600), suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_typed_record_is_the_adapted_full_decode(key: str, data: st.DataObject) -> None:
    agent = AGENTS[key]
    raw = json.dumps(data.draw(agent.line)).encode() + b"\n"
    typed = _typed(agent, raw)
    if typed is None:  # refused: the reader decodes this line in full and adapts it
        return
    full = decode_line(raw)
    assert isinstance(full, dict)
    assert shape(agent, typed) == shape(agent, agent.record(full))


@pytest.mark.parametrize("key", sorted(AGENTS))
@given(data=st.data())
def test_a_record_in_the_agents_own_shape_is_always_typed(key: str, data: st.DataObject) -> None:
    agent = AGENTS[key]
    raw = json.dumps(data.draw(agent.typical)).encode() + b"\n"
    assert _typed(agent, raw) is not None


ODD_LINES = st.sampled_from([b"\n", b"   \n", b"{not json\n", b"[1, 2]\n", b'{"type": "\xff"}\n'])


@st.composite
def session_bytes(draw: st.DrawFn, agent: Agent) -> bytes:
    lines = draw(
        st.lists(
            st.one_of(
                agent.line.map(lambda x: json.dumps(x).encode() + b"\n"),
                agent.typical.map(lambda x: json.dumps(x).encode() + b"\n"),
                ODD_LINES,
            ),
            max_size=30,
        )
    )
    return b"".join(lines)


def _read(agent: Agent, data: bytes) -> object:
    return read_session([(agent.name, io.BytesIO(data))], agent.key, require=False)


@pytest.mark.parametrize("key", sorted(AGENTS))
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), batch=st.sampled_from([1, 2, 5, 512]))
def test_a_session_reads_alike_through_either_decoding(
    key: str, data: st.DataObject, batch: int
) -> None:
    agent = AGENTS[key]
    if compiled.typed_decoder(agent.key) is None:
        pytest.skip("the compiled decoder is not offered on this interpreter")
    raw = data.draw(session_bytes(agent))
    asked: list[str] = []

    def counted(kind: str) -> Any:
        asked.append(kind)
        return reader.typed_batches(kind)

    with patch.object(reader, "BATCH_LINES", batch):
        with patch.object(tally, "typed_batches", lambda kind: None):
            plain = _read(agent, raw)
        # From the first line on (not past the import's threshold): every line through it.
        with (
            patch.object(tally, "compiled_from", lambda line, size=0: True),
            patch.object(tally, "typed_batches", counted),
        ):
            fast = _read(agent, raw)
    assert fast == plain
    assert asked or not raw


# ---------------------------------------------------------------- the adapters' own rules
# What the loop cannot tell apart once a line is a record, pinned (the properties above
# hold the two decodings alike, so they cannot see a rule both would share).


def test_a_qwen_record_whose_parent_is_neither_text_nor_null_is_no_tree_entry() -> None:
    assert qwen.Record({"uuid": "u2", "parentUuid": 5}).uuid is None
    assert qwen.Record({"uuid": "u2", "parentUuid": None}).uuid == "u2"
    assert qwen.Record({"uuid": "u2", "parentUuid": "u1"}).parentUuid == "u1"
    assert qwen.Record({"uuid": 7, "parentUuid": "u1"}).uuid is None


def test_an_adapter_reads_counts_by_the_one_count_rule() -> None:
    usage = qwen.Record({"usageMetadata": {"promptTokenCount": None}}).usage
    assert usage == qwen.Usage(0, 0, 0, 0, 0)
    bad = qwen.Record({"usageMetadata": {"candidatesTokenCount": -1}}).usage
    assert isinstance(bad, Problem)
    assert bad.path == "usageMetadata.candidatesTokenCount"
