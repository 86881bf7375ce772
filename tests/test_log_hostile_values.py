"""A log record whose fields hold the wrong JSON type (a list where a text is due, a
number where a list is due) is a malformed line or a record passed over, never an
internal error: each agent's reader met such a value with a dict or set lookup
(``unhashable type: 'list'``) or a loop over a number (the seventh walk, found by
setting every field of the fixtures' first lines to each hostile value in turn)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.log_hostile_helpers import damaged, read_and_replay

_CLAUDE = "claude/01-plain-2.1/projects/-home-user-proj/11111111-1111-4111-8111-111111111111.jsonl"
_CLAUDE_AGENT = (
    "claude/07-btw-sidechain-replay/projects/-home-user-proj/"
    "77777777-7777-4777-8777-777777777777/subagents/agent-aside_question-1a2b3c4d.jsonl"
)
_AMP = "amp/ledger/amp/threads/T-aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa.json"

#: (fixture, line or None for a document, the field, its hostile value): each ended in
#: an internal error before its fix (the reader and line named).
CASES: list[tuple[str, int | None, tuple[str | int, ...], object]] = [
    (_CLAUDE, 1, ("type",), []),  # pi.claims: `kind not in _ENTRY_TYPES`
    (_CLAUDE, 4, ("message", "content", 0, "type"), []),  # claude._thinks
    (_CLAUDE_AGENT, 1, ("message", "type"), []),  # kimi.claims: `in _WIRE_TYPES`
    (_AMP, None, ("messages", 1, "messageId"), []),  # amp: a ledger's id as a dict key
    (_AMP, None, ("usageLedger", "events"), 123),  # amp: an events list that is a number
    (_AMP, None, ("usageLedger", "events", 0, "toMessageId"), {"a": 1}),  # amp: the same
    # copilot.is_event_type, asked what an unknown document looks like.
    ("opencode/compaction-files/opencode/storage/part/msg_h01/prt_h010.json", None, ("type",), []),
]


@pytest.mark.parametrize(("fixture", "line", "path", "new"), CASES)
def test_a_field_of_the_wrong_type_is_no_internal_error(
    fixture: str, line: int | None, path: tuple[str | int, ...], new: object
) -> None:
    read_and_replay(Path(fixture).name, damaged(fixture, line, path, new))


@pytest.mark.parametrize("cost", ["1e308"])
def test_a_logged_cost_no_exact_sum_can_hold_is_no_logged_cost(tmp_path: Path, cost: str) -> None:
    """A session's logged costs are summed exactly (120 digits): an OpenCode message's
    ``cost`` of 1e308 beside another's stopped the CLI with decimal.Rounded (a fuzz of
    the seventeenth stop). Such a figure is no logged cost; the tokens still bill."""
    import json  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import sqlite3  # noqa: PLC0415

    from tests.helpers import run_cli  # noqa: PLC0415

    logs = Path(__file__).resolve().parent / "fixtures" / "logs"
    base = tmp_path / "oc"
    shutil.copytree(logs / "opencode" / "messages-alone", base)
    db = sqlite3.connect(base / "opencode" / "opencode.db")
    rows = db.execute("SELECT id, data FROM message").fetchall()
    changed = 0
    for mid, data in rows:
        obj = json.loads(data)
        if isinstance(obj, dict) and isinstance(obj.get("tokens"), dict):
            obj["cost"] = "COST"
            text = json.dumps(obj).replace('"COST"', cost)
            db.execute("UPDATE message SET data = ? WHERE id = ?", (text, mid))
            changed += 1
    db.commit()
    db.close()
    assert changed >= 2
    result = run_cli(["replay", "--log", str(base), "--format", "jsonl"])
    assert result.code == 0, result.err
    assert "internal error" not in result.err
    total = json.loads(result.out.strip().splitlines()[-1])["total"]
    assert total["measured"]["requests"] >= 2


def test_a_goose_ledger_cost_no_exact_sum_can_hold_is_malformed(tmp_path: Path) -> None:
    """Goose's own cost of a call (a REAL, read as SQLite's text) of 1e308 stopped the
    CLI with decimal.Rounded as OpenCode's did; it is malformed, as a cost that is no
    number of dollars is (log-logged-cost)."""
    import shutil  # noqa: PLC0415
    import sqlite3  # noqa: PLC0415

    from tests.helpers import run_cli  # noqa: PLC0415

    base = tmp_path / "g"
    logs = Path(__file__).resolve().parent / "fixtures" / "logs"
    shutil.copytree(logs / "goose" / "ledger", base)
    (db_path,) = base.rglob("sessions.db")
    db = sqlite3.connect(db_path)
    db.execute(
        "UPDATE usage_ledger SET cost = 1e308 WHERE rowid = (SELECT MIN(rowid) FROM usage_ledger)"
    )
    db.commit()
    db.close()
    result = run_cli(["replay", "--log", str(base), "--format", "jsonl"])
    assert result.code == 0, result.err
    assert '"malformed": [2]' in result.out  # the call's line, in the session's ledger
