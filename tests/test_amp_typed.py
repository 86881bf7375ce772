"""Amp's thread decoded once, typed, with its messages' texts skipped (issue 40's
seventh many-small round, docs/performance.md): detection hands Amp's reader a thread
of the keys it reads, and hands every other document, or a thread it cannot be sure
of, to every agent decoded in full, as before."""

from __future__ import annotations

import io
import json

import pytest

from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import _sniff, read_session, tally
from budgetcore.replay.logs.tally import Document

compiled = pytest.importorskip("budgetcore.replay.logs.compiled")
pytestmark = pytest.mark.skipif(
    compiled.amp_decoder() is None,
    reason="the compiled decoder is not offered on this interpreter",
)

TEXT = [{"type": "text", "text": "a long reply " * 40}]
USAGE = {
    "model": "claude-sonnet-4-5",
    "timestamp": "2026-01-01T00:00:01.000Z",
    "inputTokens": 10,
    "outputTokens": 20,
    "cacheCreationInputTokens": 30,
    "cacheReadInputTokens": 40,
}


def thread(**extra: object) -> dict[str, object]:
    return {
        "v": 1,
        "id": "T-00000001",
        "messages": [
            {"role": "user", "messageId": 0, "content": TEXT},
            {"role": "assistant", "messageId": 1, "content": TEXT, "usage": USAGE},
        ],
        **extra,
    }


def sniffed(doc: object) -> tuple[str | None, object]:
    data = json.dumps(doc).encode()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(tally, "compiled_from", lambda line, size=0: True)
        found, head = _sniff(io.BytesIO(data), "threads/T-00000001.json")
    assert isinstance(head, Document)
    return (found.key if found else None), head.value


def test_an_amp_thread_is_decoded_without_its_messages_texts() -> None:
    agent, value = sniffed(thread())
    assert agent == "amp"
    assert isinstance(value, dict)
    assert all("content" not in m for m in value["messages"])
    assert value["messages"][1]["usage"] == USAGE


@pytest.mark.parametrize(
    ("doc", "agent"),
    [
        # A key no Amp thread writes: decoded in full, asked of every agent.
        (thread(projectHash="h"), "gemini-cli"),
        (thread(sessionID="ses_1", time={"created": 1}, role="assistant"), "opencode"),
        (thread(other=1), "amp"),
        # Gemini CLI's mark on a message, in a thread of Amp's keys only.
        (
            {"id": "T-1", "messages": [{"type": "gemini", "role": "assistant"}]},
            "gemini-cli",
        ),
    ],
)
def test_a_document_amp_cannot_be_sure_of_is_decoded_in_full(doc: object, agent: str) -> None:
    found, value = sniffed(doc)
    assert found == agent
    assert isinstance(value, dict)
    assert value == doc  # every key, the texts included


def outcome(data: bytes, fast: bool, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as m:
        m.setattr(tally, "compiled_from", lambda line, size=0: fast)
        try:
            return read_session([("threads/T-1.json", data)])
        except ScenarioError as exc:
            return (type(exc).__name__, exc.problems, getattr(exc, "agent", None))


@pytest.mark.parametrize(
    "data",
    [
        json.dumps(thread()).encode(),
        json.dumps(
            thread(
                usageLedger={"events": [{"tokens": {"input": 5, "output": 6}, "toMessageId": 1}]}
            )
        ).encode(),
        json.dumps(thread(id="thread-b")).encode(),
        json.dumps(
            {"id": "T-1", "messages": [{"type": "gemini", "role": "assistant", "usage": USAGE}]}
        ).encode(),
        # A repeated key: the last copy, as the full decode reads it.
        b'{"id": "T-1", "messages": [{"role": "user", "usage": {"inputTokens": 1},'
        b' "role": "assistant"}], "id": "T-2"}',
        json.dumps({"id": "T-1", "messages": [1, {"role": "assistant", "usage": USAGE}]}).encode(),
    ],
)
def test_a_thread_reads_the_same_either_way(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    assert outcome(data, True, monkeypatch) == outcome(data, False, monkeypatch)
