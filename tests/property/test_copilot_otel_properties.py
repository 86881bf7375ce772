"""Copilot CLI's OpenTelemetry pass, made leaner in memory (issue 40; docs/performance.md,
"A folder's sessions let go once measured"), reads any export to the same session as
the pass before it (``tests/copilot_before.py``, commit 30fcd9f): the same requests,
series, times, duplicates, entries and malformed lines.

The generated records mix the four sources (chat and invoke_agent spans, inference and
agent-turn logs), share traces, responses and conversations from small pools, and leave
out a record's model or session, so that a trace's model and session, and a lower
source's copy of a higher one, are what decides.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.logs import copilot
from budgetcore.replay.logs.tally import Tally
from tests.copilot_before import otel_before

_INTERACTION = "github.copilot.interaction_id"
_TRACES = st.one_of(st.none(), st.sampled_from(["t1", "t2", "t3", " ", "t4"]))
_SOME = st.one_of(st.none(), st.sampled_from(["a", "b", "c"]))
_COUNT = st.one_of(
    st.none(), st.integers(0, 50), st.sampled_from(["7", " 12 ", "x", -1, True, 10**20])
)


@st.composite
def _record(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["chat", "invoke_agent", "inference", "turn", "other"]))
    attrs: dict[str, Any] = {}
    obj: dict[str, Any] = {"attributes": attrs}
    if kind in ("chat", "invoke_agent", "other"):
        obj["type"] = "span"
        obj["name"] = f"{kind} m" if kind != "other" else "execute_tool x"
        if draw(st.booleans()):
            attrs["gen_ai.operation.name"] = kind
    elif kind == "inference":
        attrs["event.name"] = "gen_ai.client.inference.operation.details"
    else:
        obj["body"] = "copilot_chat.agent.turn"
    trace = draw(_TRACES)
    if trace is not None:
        obj["traceId"] = trace
    for key in copilot._MODEL_ATTRS:
        model = draw(st.one_of(st.none(), st.sampled_from(["claude-sonnet-4-5", "gpt-5", " "])))
        if model is not None:
            attrs[key] = model
    # Sessions of every rank, of the lower ranks alone (a trace's session then decided
    # by its first of the highest rank), or none.
    ranks = draw(st.sampled_from([(1, 2, 3), (1, 2), ()]))
    for key, rank in copilot._SESSION_ATTRS:
        sid = draw(_SOME) if rank in ranks else None
        if sid is not None:
            attrs[key] = sid
    for key in (
        "gen_ai.usage.input_tokens",
        "gen_ai.usage.output_tokens",
        "gen_ai.usage.cache_read.input_tokens",
        "gen_ai.usage.cache_creation.input_tokens",
        "gen_ai.usage.reasoning.output_tokens",
    ):
        count = draw(_COUNT)
        if count is not None:
            attrs[key] = count
    when = draw(st.one_of(st.none(), st.integers(1_700_000_000, 1_700_000_100)))
    if when is not None:
        obj["endTime"] = [when, draw(st.integers(0, 999_999_999))]
    return obj if draw(st.integers(0, 20)) else {"type": "span", "name": "no attributes"}


def _read(otel: Any, records: list[dict[str, Any]]) -> Any:
    tally = Tally("copilot-cli")
    tally.open("copilot.jsonl")
    for _ in records:
        tally.record()
    otel(tally, list(enumerate(records, 1)))
    return _relabelled(tally.session("copilot.jsonl"))


def _relabelled(log: Any) -> Any:
    """The ledger with a record of no request kind and no usage under one label: the
    pass before named each by its span's name ("otel execute_tool x"); since the
    seventeenth stop (one source per Copilot session) it is "otel record (no usage)",
    an entry that says no bill. Entries sorted: the count per label is what is kept."""
    ledger = []
    for file in log.ledger:
        merged: dict[str, int] = {}
        for kind, n in file.entries:
            if kind.startswith("otel ") and not kind.endswith(")"):
                kind = "otel record (no usage)"  # noqa: PLW2901 - relabelled
            merged[kind] = merged.get(kind, 0) + n
        ledger.append(dataclasses.replace(file, entries=tuple(sorted(merged.items()))))
    return dataclasses.replace(log, ledger=tuple(ledger))


@given(st.lists(_record(), max_size=30))
def test_an_export_reads_as_it_did_before(records: list[dict[str, Any]]) -> None:
    assert _read(copilot._otel, records) == _read(otel_before, records)


def test_the_records_reach_every_rule() -> None:
    # Not a property that holds on nothing: an export with a copy covered by a higher
    # source, a request whose model and session come from its trace, and a malformed
    # count is read alike, and holds each of them.
    records = [
        {
            "type": "span",
            "name": "chat m",
            "traceId": "t1",
            "attributes": {
                "gen_ai.response.model": "gpt-5",
                "gen_ai.conversation.id": "a",
                "gen_ai.usage.input_tokens": 10,
                "gen_ai.usage.output_tokens": 2,
            },
        },
        {
            "type": "span",
            "name": "invoke_agent m",
            "traceId": "t1",
            "attributes": {"gen_ai.usage.input_tokens": 10},
        },
        {
            "attributes": {
                "event.name": "gen_ai.client.inference.operation.details",
                "gen_ai.usage.input_tokens": 5,
            },
            "traceId": "t2",
        },
        {
            "type": "span",
            "name": "execute_tool x",
            "traceId": "t2",
            "attributes": {"gen_ai.request.model": "gpt-5", "session.id": "b"},
        },
        {"type": "span", "name": "chat m", "attributes": {"gen_ai.usage.input_tokens": "x"}},
        # A trace with no conversation: its session is its first name of the highest
        # rank it has (two interactions: the first).
        {"type": "span", "name": "x", "traceId": "t3", "attributes": {_INTERACTION: "i1"}},
        {"type": "span", "name": "x", "traceId": "t3", "attributes": {_INTERACTION: "i2"}},
        {
            "type": "span",
            "name": "chat m",
            "traceId": "t3",
            "attributes": {"gen_ai.response.model": "gpt-5", "gen_ai.usage.output_tokens": 1},
        },
    ]
    log = _read(copilot._otel, records)
    assert log == _read(otel_before, records)
    assert [s.name for s in log.series] == [
        "conversation:a",
        "conversation:b",
        "conversation:i1",
    ]
    assert log.series[1].requests[0].model == "gpt-5"
    (ledger,) = log.ledger
    assert dict(ledger.duplicates) == {"invoke_agent span covered by a higher source": 1}
    assert len(ledger.malformed) == 1
