"""OpenCode's manual compactions told from automatic ones (issues 37 and 40; docs/replay.md,
"Other agents").

OpenCode's ``SessionCompaction.create`` writes a user message with a part
``{type: "compaction", auto}`` (``auto`` true from its overflow check, false from the
user's ``/compact``), and the summary is the assistant message with ``summary: true``
whose ``parentID`` is that message (sst/opencode
``packages/opencode/src/session/compaction.ts`` @31e22f65; anomalyco/opencode
``packages/opencode/src/session/message-v2.ts`` @007a9409 ``CompactionPart``). The
fixtures ``opencode/compaction-db`` and ``opencode/compaction-files`` hold one session in
the database and in the older files (``tests/fixtures/logs/opencode/make.py`` says its
numbers); ccusage reads both (``tests/test_agents_ccusage.py``).
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.replay.asrun import as_run
from budgetcore.replay.logs import opencode, read_sessions
from budgetcore.replay.logs.folder import plan_folder
from budgetcore.replay.logs.layouts import plan_opencode
from budgetcore.replay.logs.model import ParsedLog
from tests.opencode_helpers import _database, _database_v2, _read, _reply, _summary, _user

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs" / "opencode"
DB = LOGS / "compaction-db" / "opencode" / "opencode.db"
FILES = LOGS / "compaction-files" / "opencode"

#: make.py: the compactions come after main-series requests 3, 4 and 5 (the summaries
#: are their own series, summary:main); the first was asked by OpenCode (auto: true),
#: the second by the user (auto: false), the third's parent message has no compaction
#: part.
EXPECTED = [(3, "auto"), (4, "manual"), (5, None)]


def _db_log() -> ParsedLog:
    (log,) = read_sessions([("opencode.db", DB.read_bytes())])
    return log


def _files_log() -> ParsedLog:
    paths = sorted(p.relative_to(FILES).as_posix() for p in FILES.rglob("*") if p.is_file())
    (session,) = plan_folder(paths).sessions
    (log,) = read_sessions([(f, (FILES / f).read_bytes()) for f in session.files])
    return log


def _compactions(log: ParsedLog) -> list[tuple[int, str | None]]:
    return [(c.after_turn, c.trigger) for c in log.main.compactions]


def test_the_database_s_compaction_parts_say_who_asked() -> None:
    log = _db_log()
    assert _compactions(log) == EXPECTED
    (ledger,) = log.ledger
    # 14 messages, then the parts of the three summaries' parents: each row read is a
    # line of the ledger (the other parts, text and steps, are not read).
    assert ledger.lines == 17
    assert dict(ledger.entries) == {
        "user message": 6,
        "compaction part (auto)": 1,
        "compaction part (manual)": 1,
        "text part": 1,
    }


def test_the_older_files_compaction_parts_say_who_asked() -> None:
    log = _files_log()
    assert _compactions(log) == EXPECTED
    parts = [f for f in log.ledger if "/part/" in f.name]
    # Every part file of the session's messages is read, one line each, by its type.
    assert len(parts) == 9
    assert all(f.lines == 1 and not f.malformed and not f.requests for f in parts)
    kinds: dict[str, int] = {}
    for f in parts:
        for kind, n in f.entries:
            kinds[kind] = kinds.get(kind, 0) + n
    assert kinds == {
        "text part": 5,
        "step-start part": 1,
        "step-finish part": 1,
        "compaction part (auto)": 1,
        "compaction part (manual)": 1,
    }
    # The step-finish part's tokens are the message's again: billed once, as ccusage.
    assert len(log.main.requests) + len(log.pick("summary:main").requests) == 5 + 3


def test_the_backtest_holds_the_prediction_to_the_automatic_compactions_only() -> None:
    """SPEC §17: predicted against the compactions the log marks automatic (and those it
    does not mark); the user's /compact is only shown. OpenCode's trigger for
    claude-sonnet-4-5 at its defaults is 200,000 − min(64,000, 32,000) = 168,000
    (overflow.ts@08f74b9bb5): request 3 ends at 168,500 + 1,500 = 170,000 and fires it,
    and the log's automatic compaction is right after it (the summary is its own
    series); the /compact after request 4 came at 8,500 + 800 tokens."""
    for log in (_db_log(), _files_log()):
        a = as_run(log)
        assert a.trigger == 168_000
        assert a.logged_compactions == (3, 5)
        assert a.manual_compactions == (4,)
        assert a.predicted_compactions == (3,)
        # Read as before (every compaction automatic), the /compact was one the rule
        # had to predict.
        comps = tuple(dataclasses.replace(c, trigger="auto") for c in log.main.compactions)
        main = dataclasses.replace(log.main, compactions=comps)
        series = (main, *log.series[1:])
        before = as_run(dataclasses.replace(log, series=series))
        assert before.logged_compactions == (3, 4, 5)
        assert before.manual_compactions == ()
        assert before.predicted_compactions == a.predicted_compactions


#: LiteLLM's claude-sonnet-4-5 per million tokens (model_prices_and_context_window.json,
#: the registry we ship): input 3, cache write 3.75, cache read 0.30, output 15.
_PRICES = {"input": 3, "write": Decimal("3.75"), "read": Decimal("0.30"), "output": 15}


def _cost(fresh: int, write: int, read: int, output: int) -> Decimal:
    p = _PRICES
    return (fresh * p["input"] + write * p["write"] + read * p["read"] + output * p["output"]) / (
        10**6
    )


def test_the_summary_is_its_own_call_billed_as_logged_and_counted_once() -> None:
    """OpenCode's summary (``summary: true``) is the compaction's own LLM call
    (compaction.ts @3df4a255: its own processor, no system prompt, no tools): a series of
    its own, billed as logged, as Claude Code's agent-acompact file. Its tokens stay in
    the measured usage once: make.py's three summaries (160,000 + 9,000 + 5,000 input,
    3,000 + 1,200 + 900 output) beside the conversation's five requests."""
    summaries = _cost(174_000, 0, 0, 5_100)
    everything = _cost(177_900, 179_000, 140_000, 10_700)
    assert (summaries, everything) == (Decimal("0.5985"), Decimal("1.40745"))
    for log in (_db_log(), _files_log()):
        assert [s.name for s in log.series] == ["main", "summary:main"]
        a = as_run(log)
        main, calls = a.series
        assert (main.billed_as_logged, calls.billed_as_logged) == (False, True)
        assert calls.requests == 3
        assert calls.modelled == calls.measured  # as logged, never modelled
        assert calls.measured.cost == summaries
        assert a.measured_cost == everything  # every request once, as before
        assert a.requests == 8


def test_a_summary_that_ended_in_an_error_is_billed_but_compacted_nothing() -> None:
    """OpenCode looks for its last compaction among summaries without an error
    (sst/opencode compaction.ts @31e22f65, ``completedCompactions``): one that failed
    (a provider error, here with the tokens it had used) replaced nothing. Its request
    is still billed, in the summary series; the retry after it is the compaction."""
    failed = {**_summary(2, "u1"), "error": {"name": "APIError", "data": {"message": "x"}}}
    db = _database(
        [
            ("r1", _reply(0)),
            ("u1", _user(1)),
            ("a1", failed),
            ("a2", _summary(3, "u1")),
            ("r2", _reply(4)),
        ],
        [("p1", "u1", {"type": "compaction", "auto": True})],
    )
    log = _read(db)
    assert _compactions(log) == [(1, "auto")]
    assert len(log.pick("summary:main").requests) == 2
    # Every request once: the two replies and both summaries.
    assert as_run(log).measured_cost == _cost(200 + 204 + 102 + 103, 0, 0, 20 + 20 + 10 + 10)


def _with_child_summary(summary: bool) -> ParsedLog:
    """One root session and a child session (a subagent's task), each compacting once;
    the child's summary left out when ``summary`` is false."""
    db = _database(
        [
            ("r1", _reply(0)),
            ("u1", _user(1)),
            ("a1", _summary(2, "u1")),
            ("r2", _reply(3)),
        ],
        [("p1", "u1", {"type": "compaction", "auto": True})],
    )
    db.execute("INSERT INTO session VALUES ('c', 's')")
    child = [("cr1", _reply(4)), ("cu1", _user(5))]
    child += [("ca1", {**_summary(6, "cu1"), "tokens": {"input": 7_000, "output": 700}})]
    child += [("cr2", _reply(7))]
    for at, (mid, data) in enumerate(child, start=10):
        if summary or mid != "ca1":
            db.execute("INSERT INTO message VALUES (?, 'c', ?, ?)", (mid, at, json.dumps(data)))
    return _read(db)


def test_a_subagent_s_summary_is_its_series_not_the_main_what_if_s() -> None:
    """A child session's summary is a summary call of its own series
    (``summary:subagent:<id>``); the what-if replaces only the main series' summary
    calls, so the child's is the as-run model's on both sides and cancels."""
    from budgetcore.replay.logs.session import log_model  # noqa: PLC0415
    from budgetcore.replay.whatif import what_if_direct  # noqa: PLC0415

    deltas = []
    for summary in (True, False):
        log = _with_child_summary(summary)
        names = [s.name for s in log.series]
        assert ("summary:subagent:c" in names) is summary
        assert [c.after_turn for c in log.pick("subagent:c").compactions] == [1] * summary
        a = as_run(log)
        w = what_if_direct(log, a, log_model(log, window=a.window).scenario, None, timed=False)
        deltas.append((w.delta["summary_calls"], w.delta["total"]))
    assert deltas[0] == deltas[1]


def test_the_folder_plan_reads_a_session_s_parts_after_its_messages() -> None:
    paths = [
        "storage/message/ses_1/msg_1.json",
        "storage/message/ses_1/msg_2.json",
        "storage/message/ses_2/msg_3.json",
        "storage/part/msg_1/prt_1.json",
        "storage/part/msg_2/prt_2.json",
        "storage/part/msg_2/prt_3.json",
        "storage/part/msg_9/prt_9.json",  # no message of it: not this agent's to read
        "storage/session/prj_1/ses_1.json",
    ]
    claim = plan_opencode(paths, frozenset(paths))
    assert [s.files for s in claim.sessions] == [
        (
            "storage/message/ses_1/msg_1.json",
            "storage/message/ses_1/msg_2.json",
            "storage/part/msg_1/prt_1.json",
            "storage/part/msg_2/prt_2.json",
            "storage/part/msg_2/prt_3.json",
        ),
        ("storage/message/ses_2/msg_3.json",),
    ]
    # The storage folder itself given: its message and part folders at the top.
    inside = [p.removeprefix("storage/") for p in paths[:6]]
    (one, _two) = plan_opencode(inside, frozenset(inside)).sessions
    assert one.files[2:] == (
        "part/msg_1/prt_1.json",
        "part/msg_2/prt_2.json",
        "part/msg_2/prt_3.json",
    )
    # The part of no message read, and the session file, are named as not read.
    assert plan_folder(paths).not_read == (
        "storage/part/msg_9/prt_9.json",
        "storage/session/prj_1/ses_1.json",
    )


def test_the_compiled_decode_reads_a_summary_s_parent_as_the_plain_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The message shape's parentID, decoded straight into msgspec's struct (a large
    database's path) or by the standard library: the same compactions."""
    pytest.importorskip("msgspec")
    monkeypatch.setattr(opencode, "compiled_from", lambda line, size=0: True)
    typed = _db_log()
    assert opencode.record_batches(opencode.MESSAGE) is not None  # compiled here
    monkeypatch.setattr(opencode, "record_batches", lambda shape: None)
    plain = _db_log()
    assert _compactions(typed) == _compactions(plain) == EXPECTED
    assert typed == plain


# ---------------------------------------------------------------- in-memory databases


def test_a_part_that_is_no_json_is_malformed_and_its_compaction_unknown() -> None:
    db = _database(
        [("r1", _reply(0)), ("u1", _user(1)), ("a1", _summary(2, "u1"))],
        [("p1", "u1", "{not json")],
    )
    log = _read(db)
    assert _compactions(log) == [(1, None)]
    (ledger,) = log.ledger
    assert (ledger.lines, ledger.malformed) == (4, (4,))
    assert [p.code for p in log.skipped] == ["log-line-not-json"]


def test_a_compaction_part_whose_auto_is_no_boolean_or_disagrees_is_unknown() -> None:
    db = _database(
        [
            ("r1", _reply(0)),
            ("u1", _user(1)),
            ("a1", _summary(2, "u1")),
            ("r2", _reply(2)),
            ("u2", _user(3)),
            ("a2", _summary(4, "u2")),
            ("r3", _reply(4)),
            ("u3", _user(5)),
            ("a3", _summary(6, "u3")),
        ],
        [
            ("p1", "u1", {"type": "compaction", "auto": "yes"}),
            ("p2", "u2", {"type": "compaction", "auto": True}),
            ("p3", "u2", {"type": "compaction", "auto": False}),
            ("p4", "u3", [1]),
            ("p5", "u3", {"type": "compaction", "auto": False}),
            ("p6", "u3", {"text": "x"}),
        ],
    )
    log = _read(db)
    assert _compactions(log) == [(1, None), (2, None), (3, "manual")]
    (ledger,) = log.ledger
    assert ledger.lines == 9 + 6
    assert dict(ledger.entries) == {
        "user message": 3,
        "compaction part (auto unknown)": 1,
        "compaction part (auto)": 1,
        "compaction part (manual)": 2,
        "part (no type)": 1,
    }
    assert [p.code for p in log.skipped] == ["log-line-not-object"]


def test_a_database_without_a_part_table_leaves_every_compaction_unknown() -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT)")
    db.execute("CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, data TEXT)")
    db.execute("INSERT INTO session VALUES ('s', NULL)")
    db.execute("INSERT INTO message VALUES ('r1', 's', ?)", (json.dumps(_reply(0)),))
    db.execute("INSERT INTO message VALUES ('u1', 's', ?)", (json.dumps(_user(1)),))
    db.execute("INSERT INTO message VALUES ('a1', 's', ?)", (json.dumps(_summary(2, "u1")),))
    log = _read(db)
    assert _compactions(log) == [(1, None)]
    assert log.ledger[0].lines == 3


def test_every_row_of_the_newer_session_message_table_is_in_the_ledger() -> None:
    """OpenCode's session_message table holds every message (anomalyco/opencode
    ``packages/core/src/session/sql.ts``), not only the assistant's: the user rows were
    neither read nor counted, so the ledger's lines did not add up to the rows. A row
    also in the message table is still read once."""
    db = Path(__file__).resolve().parent / "fixtures" / "logs" / "opencode" / "v2"
    path = db / "opencode" / "opencode.db"
    con = sqlite3.connect(path)
    try:
        rows = con.execute(
            "SELECT COUNT(*) FROM (SELECT id FROM session_message UNION SELECT id FROM message)"
        ).fetchone()[0]
    finally:
        con.close()
    with path.open("rb") as stream:
        (log,) = read_sessions([("opencode/opencode.db", stream)])
    assert sum(f.lines for f in log.ledger) == rows == 4
    assert dict(log.ledger[0].entries)["user message"] == 2
    assert len(log.main.requests) == 2


# ---------------------------------------------------------------- the newer store

V2 = LOGS / "compaction-v2" / "opencode" / "opencode.db"


def test_the_newer_store_s_compaction_rows_are_compactions_of_their_series() -> None:
    """make.py's compaction-v2: a ``session_message`` row of type ``compaction`` is a
    compaction of its series, automatic or manual as its ``reason`` says
    (anomalyco/opencode ``packages/core/src/session/message.ts`` @08e3e1f9,
    ``event.ts`` @05dca9f6); the /compact that failed (``status`` "failed",
    ``message-updater.ts`` @03130971) replaced nothing and is an entry only. The child
    session's compaction is its series'."""
    (log,) = read_sessions([("opencode.db", V2.read_bytes())])
    assert _compactions(log) == [(3, "auto"), (4, "manual")]
    child = log.pick("subagent:ses_" + "w" * 26)
    assert [(c.after_turn, c.trigger) for c in child.compactions] == [(1, "auto")]
    assert [len(s.requests) for s in log.series] == [6, 2]
    (ledger,) = log.ledger
    assert ledger.lines == ledger.accounted == 16  # every row of both sessions
    assert dict(ledger.entries) == {
        "user message": 4,
        "compaction message (auto)": 2,
        "compaction message (manual)": 1,
        "compaction message (failed)": 1,
    }
    a = as_run(log)
    # The third request ends at 168,500 + 1,500 = 170,000 >= 168,000: OpenCode's rule
    # fires where the row says it compacted.
    assert (a.logged_compactions, a.manual_compactions, a.predicted_compactions) == (
        (3,),
        (4,),
        (3,),
    )


def test_a_compaction_row_s_reason_and_status_in_the_older_and_newer_schema() -> None:
    """Rows as the older schema wrote them (no ``status``: message.ts @08e3e1f9) and the
    newer (``status``); a reason neither auto nor manual tells nothing; a row still
    "running" (never completed) is no compaction."""
    rows: list[tuple[str, dict[str, object]]] = []
    for n, row in enumerate(
        [
            {"reason": "auto"},
            {"reason": "manual", "status": "completed"},
            {"reason": "overflow"},
            {"status": "completed"},
            {"reason": "auto", "status": "running"},
            {"reason": ["auto"], "status": "completed"},
            {"reason": "auto", "status": 7},
        ]
    ):
        rows += [("assistant", _reply(2 * n)), ("compaction", {**row, "time": {"created": n}})]
    log = _read(_database_v2(rows))
    assert _compactions(log) == [(1, "auto"), (2, "manual"), (3, None), (4, None), (6, None)]
    assert dict(log.ledger[0].entries) == {
        "compaction message (auto)": 1,
        "compaction message (manual)": 1,
        "compaction message (reason unknown)": 3,
        "compaction message (not completed)": 2,
    }


def test_each_request_is_priced_by_its_own_model_and_provider() -> None:
    # The reader keeps the last request's model and provider and their registry id
    # (opencode.Pending): a request that changes either one is priced anew, as it is
    # read alone, whichever comes before it.
    def reply(n: int, model: object, provider: object) -> tuple[str, dict[str, object]]:
        return (f"m{n}", {**_reply(n), "modelID": model, "providerID": provider})

    pairs: list[tuple[object, object]] = [
        ("gpt-oss-120b", "cerebras"),
        ("gpt-oss-120b", "cerebras"),
        ("gpt-oss-120b", "fireworks-ai"),
        ("gpt-oss-120b", {"id": "cerebras"}),
        ("gpt-oss-120b", None),
        (" gpt-oss-120b ", "cerebras"),
        ("claude-opus-45", "cerebras"),
        ("   ", "cerebras"),
        (7, "cerebras"),
        ("gpt-oss-120b", "cerebras"),
    ]
    log = _read(_database([reply(n, m, p) for n, (m, p) in enumerate(pairs)], []))
    alone = [_read(_database([reply(0, m, p)], [])).main.requests[0].model for m, p in pairs]
    assert [r.model for r in log.main.requests] == alone
    assert alone[:4] == [
        "cerebras/gpt-oss-120b",
        "cerebras/gpt-oss-120b",
        "fireworks_ai/gpt-oss-120b",
        "gpt-oss-120b",
    ]
