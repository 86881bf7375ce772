"""OpenCode's compaction flag, read from either store (tests/test_opencode_compactions.py
holds the examples): each compaction takes its parent message's compaction part's auto;
in the newer session_message store, each compaction row that completed is a compaction,
taking its reason."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.logs import read_sessions
from tests.opencode_helpers import _database, _database_v2, _read, _reply, _summary, _user

#: What a compaction's parent message holds: no part, or one compaction part whose auto
#: is this value (a non-boolean tells nothing), or a text part.
_FLAGS = st.sampled_from(["none", True, False, "x", None, "text"])


def _oracle(flag: object) -> str | None:
    """The trigger, written from OpenCode's CompactionPart (auto: boolean) alone."""
    if flag is True:
        return "auto"
    if flag is False:
        return "manual"
    return None


@given(flags=st.lists(_FLAGS, max_size=8), files=st.booleans())
def test_each_compaction_takes_its_parent_s_flag_in_either_store(
    flags: list[object], files: bool
) -> None:
    messages: list[tuple[str, dict[str, Any]]] = []
    parts: list[tuple[str, str, Any]] = []
    for i, flag in enumerate(flags):
        # The request the compaction follows, then OpenCode's compaction message and
        # the summary (its own series, summary:main).
        reply, user, summary = f"msg_r{i:02d}", f"msg_u{i:02d}", f"msg_s{i:02d}"
        messages += [
            (reply, _reply(3 * i)),
            (user, _user(3 * i + 1)),
            (summary, _summary(3 * i + 2, user)),
        ]
        if flag == "text":
            parts.append((f"prt_{i:02d}", user, {"type": "text", "text": "x"}))
        elif flag != "none":
            parts.append((f"prt_{i:02d}", user, {"type": "compaction", "auto": flag}))
    if files:
        given_files = [
            (
                f"storage/message/ses_1/{mid}.json",
                json.dumps({"id": mid, "sessionID": "ses_1", **m}).encode(),
            )
            for mid, m in messages
        ] + [(f"storage/part/{mid}/{pid}.json", json.dumps(p).encode()) for pid, mid, p in parts]
        logs = read_sessions(given_files) if given_files else ()
        log = logs[0] if logs else None
    else:
        log = _read(_database(messages, parts)) if messages else None
    got = [] if log is None else [(c.after_turn, c.trigger) for c in log.main.compactions]
    assert got == [(i + 1, _oracle(f)) for i, f in enumerate(flags)]
    if log is not None:
        read = sum(n for f in log.ledger for k, n in f.entries if "part" in k)
        assert read == len(parts)  # every part row or file read is in the ledger


#: A session_message compaction row's reason and status: absent (the key left out), or
#: these values.
_REASON = st.sampled_from(["absent", "auto", "manual", "overflow", None, 1])
_STATUS = st.sampled_from(["absent", "completed", "failed", "running", None, 0])


def _row_oracle(reason: object, status: object) -> tuple[bool, str | None]:
    """Whether the row is a compaction, and its trigger, written from anomalyco/opencode's
    schema alone: ``status`` "running" | "completed" | "failed" (message-updater.ts
    @03130971; none in the older message.ts @08e3e1f9, whose rows all completed),
    ``reason`` "auto" | "manual" (event.ts @05dca9f6)."""
    completed = status in ("absent", None, "completed")
    return completed, reason if reason in ("auto", "manual") else None


@given(rows=st.lists(st.tuples(_REASON, _STATUS), max_size=8))
def test_each_completed_compaction_row_is_a_compaction_taking_its_reason(
    rows: list[tuple[object, object]],
) -> None:
    messages: list[tuple[str, dict[str, Any]]] = []
    want = []
    for i, (reason, status) in enumerate(rows):
        data: dict[str, Any] = {"time": {"created": 2 * i + 1}}
        if reason != "absent":
            data["reason"] = reason
        if status != "absent":
            data["status"] = status
        messages += [("assistant", _reply(2 * i)), ("compaction", data)]
        completed, trigger = _row_oracle(reason, status)
        if completed:
            want.append((i + 1, trigger))  # after the i + 1 requests before it
    log = _read(_database_v2(messages)) if messages else None
    got = [] if log is None else [(c.after_turn, c.trigger) for c in log.main.compactions]
    assert got == want
    if log is not None:
        (ledger,) = log.ledger
        assert ledger.lines == ledger.accounted == 2 * len(rows)
        rows_read = sum(n for k, n in ledger.entries if k.startswith("compaction message"))
        assert rows_read == len(rows)
