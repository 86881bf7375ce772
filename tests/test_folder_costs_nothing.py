"""A folder's measured cost stays known when a session in it could not be read but
holds nothing that may carry a bill, and is unknown while one may have cost something
we could not read (issue 40; docs/replay.md, "Folders"; the rule:
``budgetcore.replay.logs.agents.costs_nothing``).

Each case is a fixture folder laid out as the agent's data folder: one session with
requests and one with none. Where ccusage reads the agent, the known total equals
ccusage 20.0.24's sum of its sessions (it lists no session for a file without usage);
where the session may have cost something, ccusage still shows that sum and we say
"unknown (at least $X)".
"""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.replay.logs import NoRequests, read_session
from budgetcore.replay.logs.agents import AGENTS, costs_nothing
from budgetcore.replay.logs.model import FileLedger, LogSeries, ParsedLog
from tests.ccusage import agent_sessions, run_ccusage
from tests.helpers import picked_folder, run_cli

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
CENT_MICRO = Decimal("0.000001")


def _total(folder: Path, *flags: str) -> dict[str, Any]:
    result = run_cli(["replay", "--log", str(folder), *flags, "--format", "jsonl"])
    assert result.code == 0, result.err
    total: dict[str, Any] = json.loads(result.out.strip().splitlines()[-1])["total"]
    return total


def _ccusage_sum(agent: str, fixture: str) -> Decimal:
    if agent == "claude":
        base = LOGS / "claude" / fixture / "projects"
        files = {p.relative_to(base).as_posix(): p.read_bytes() for p in base.rglob("*.jsonl")}
        sessions = run_ccusage("claude", files)["sessions"]
    else:
        sessions = agent_sessions(agent, fixture)
    return sum((Decimal(str(s["totalCost"])) for s in sessions), Decimal(0))


#: (agent folder, fixture, the session with no request, its ledger's kinds)
KNOWN = [
    ("pi", "header-only", "12121212-1212-4212-8212-121212121212", {"session": 1}),
    ("gemini", "info-only", "session-2025-11-25T08-00-35353535", {"info": 1, "metadata": 1}),
    (
        "amp",
        "user-only",
        "T-12121212-1212-4212-8212-121212121212",
        {"thread": 1, "user message": 1},
    ),
    (
        "claude",
        "32-summary-only",
        "32323232-3232-4232-8232-323232323232",
        {"summary": 1, "file-history-snapshot": 1},
    ),
]


@pytest.mark.parametrize("flags", [("--usage",), ()], ids=["usage", "replay"])
@pytest.mark.parametrize(("agent", "fixture", "empty", "kinds"), KNOWN)
def test_a_session_with_nothing_billable_leaves_the_total_known_as_ccusage_s_sum(
    agent: str, fixture: str, empty: str, kinds: dict[str, int], flags: tuple[str, ...]
) -> None:
    total = _total(LOGS / agent / fixture, *flags)
    (unread,) = total["sessions_unreadable"]  # still listed, with its reason
    assert empty in unread["session"]
    assert unread["costs_nothing"] is True
    (why, *_) = unread["problems"]
    assert "no usable request" in why
    assert all(f"{k} {n}" in why for k, n in kinds.items())
    cost = total["measured"]["cost"]
    assert cost is not None
    assert Decimal(cost) == Decimal(total["measured"]["known_cost"])
    assert abs(Decimal(cost) - _ccusage_sum(agent, fixture)) <= CENT_MICRO
    # The session not read counts as its agent's (the read told whose file it is), and
    # leaves that agent's total known: nothing in it cost anything.
    (group,) = [a for a in total["agents"] if a["sessions_not_read"]]
    assert group["agent"] is not None
    assert group["sessions_not_read"] == 1
    assert group["cost"] is not None
    assert group["cost"] == group["known_cost"]


@pytest.mark.parametrize(
    "case",
    [*(f"{a}/{f}" for a, f, _e, _k in KNOWN), "goose/no-tokens", "pi/assistant-no-usage"],
)
def test_the_page_s_total_is_the_cli_s(case: str) -> None:
    """The page's sessions table (its total row's exact value) reads the same cost as
    the CLI's folder total, known or unknown, by the same rule."""
    from budgetcore.ui.replay.logs import logs_html  # noqa: PLC0415
    from budgetcore.ui.replay.state import ReplayPanel, with_logs  # noqa: PLC0415

    folder = LOGS / case
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    unread = [x for x in panel.logs if x.log is None]
    assert len(unread) == 1
    html = str(logs_html(panel, "en", wide=True))
    total_row = html.split('data-session-row="total"', 1)[1].split("</tr>", 1)[0]
    cost = _total(folder, "--usage")["measured"]["cost"]
    assert unread[0].costs_nothing is (cost is not None)
    assert f'data-value="{"null" if cost is None else cost}"' in total_row
    # Beside the table, why the total is known (as the CLI's table says).
    assert ('data-costs-nothing="1"' in html) is (cost is not None)


def test_a_goose_row_of_no_tokens_and_no_messages_leaves_the_total_known() -> None:
    """A Goose session opened and closed with no model call (every count 0, no message
    row: goose/make.py). ccusage reads Goose only from its data root, not this folder;
    the known total is the other row's own (7,500 input and 1,500 output of gpt-5:
    7,500 x 1.25 + 1,500 x 10 $/M = $0.024375)."""
    total = _total(LOGS / "goose" / "no-tokens", "--usage")
    (unread,) = total["sessions_unreadable"]
    assert unread["costs_nothing"] is True
    assert Decimal(total["measured"]["cost"]) == Decimal("0.024375")


#: (fixture, why the session may have cost something)
UNKNOWN = [
    ("assistant-no-usage", "message/assistant (no usage) 1"),
    ("malformed-line", "malformed: 1"),
]


@pytest.mark.parametrize(("fixture", "why"), UNKNOWN)
def test_a_session_that_may_have_cost_keeps_the_total_unknown(fixture: str, why: str) -> None:
    """A response without usage, or a line we could not read (a truncated assistant
    line), may be a bill: the total is unknown, the priced part kept beside, where
    ccusage shows the sum of the others."""
    total = _total(LOGS / "pi" / fixture, "--usage")
    (unread,) = total["sessions_unreadable"]
    assert unread["costs_nothing"] is False
    assert why in unread["problems"][0]
    assert total["measured"]["cost"] is None
    known = Decimal(total["measured"]["known_cost"])
    assert abs(known - _ccusage_sum("pi", fixture)) <= CENT_MICRO
    # pi's own total is unknown too: the file read to its end was pi's, and a total
    # of pi's other sessions alone looked complete beside a "not read" row.
    ((group),) = total["agents"]
    assert (group["agent"], group["sessions_not_read"]) == ("pi", 1)
    assert group["cost"] is None
    assert Decimal(group["known_cost"]) == known


def test_the_table_says_which_unread_sessions_count_as_nothing() -> None:
    table = run_cli(
        ["replay", "--log", str(LOGS / "pi" / "header-only"), "--usage", "--format", "table"]
    ).out
    assert "The total cost is unknown" not in table
    assert "1 session not read holds nothing that may carry a bill" in table
    table = run_cli(
        ["replay", "--log", str(LOGS / "pi" / "malformed-line"), "--usage", "--format", "table"]
    ).out
    said = "The total cost is unknown: 1 session could not be read, and what it cost no one"
    assert said in table


def _log(fmt: str, entries: dict[str, int], *, malformed: tuple[int, ...] = ()) -> ParsedLog:
    lines = sum(entries.values()) + len(malformed)
    ledger = FileLedger("f", lines, 0, malformed, (), (), tuple(entries.items()))
    return ParsedLog(fmt, (), (), 0, None, (ledger,))


@pytest.mark.parametrize("agent", [a for a in AGENTS if a.no_bill], ids=lambda a: a.key)
def test_only_the_agent_s_own_kinds_carry_no_bill(agent: Any) -> None:
    """Each kind of an agent's table alone costs nothing; with a kind not in it (a
    response without usage), with a malformed line, with a request, or read as another
    agent's, it may have cost."""
    for kind in agent.no_bill:
        assert costs_nothing(_log(agent.key, {kind: 2}))
    every = dict.fromkeys(agent.no_bill, 1)
    assert costs_nothing(_log(agent.key, every))
    assert not costs_nothing(_log(agent.key, {**every, "assistant (no usage)": 1}))
    assert not costs_nothing(_log(agent.key, every, malformed=(9,)))
    assert not costs_nothing(_log(agent.key, {}))  # nothing read: no proof of anything
    others = {a.key for a in AGENTS if not (agent.no_bill <= a.no_bill)}
    for other in others:
        assert not costs_nothing(_log(other, every))
    series = LogSeries("main", (), (), ())
    with_request = ParsedLog(agent.key, (series,), (), 0, None, _log(agent.key, every).ledger)
    assert not costs_nothing(with_request)


def test_the_reader_s_error_carries_the_rule() -> None:
    """NoRequests, what the CLI and the page both catch, says whether the session cost
    nothing, so both totals read it from one place."""
    folder = LOGS / "pi" / "header-only" / "sessions" / "--home-user-proj--"
    (path,) = folder.glob("*12121212*.jsonl")
    with pytest.raises(NoRequests) as found:
        read_session([(path.name, path.read_bytes())])
    assert found.value.costs_nothing
    (path,) = (LOGS / "pi" / "malformed-line").rglob("*14141414*.jsonl")
    with pytest.raises(NoRequests) as found:
        read_session([(path.name, path.read_bytes())])
    assert not found.value.costs_nothing


def test_an_oh_my_pi_title_line_carries_no_bill(tmp_path: Path) -> None:
    """oh-my-pi writes a ``title`` line first (steipete/CodexBar
    ``Tests/CodexBarTests/Fixtures/PiFamily/omp/.../2026-08-03T12-00-00-000Z_omp-fixture.jsonl``
    @27c7f334, held out in round 8): a session of a title and its header alone cost
    nothing, as one of its header alone does; its folder's cost stays known."""
    folder = tmp_path / "sessions" / "--tmp-proj--"
    folder.mkdir(parents=True)
    lines = [
        {"type": "title", "v": 1, "title": "placeholder", "updatedAt": "2026-08-03T12:00:02.000Z"},
        {"type": "session", "id": "omp-1", "timestamp": "2026-08-03T12:00:00.000Z", "cwd": "/tmp"},
    ]
    body = "".join(json.dumps(x) + "\n" for x in lines)
    (folder / "2026-08-03T12-00-00-000Z_omp-1.jsonl").write_text(body, "utf-8")
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", tmp_path / "sessions", dirs_exist_ok=True)
    total = _total(tmp_path / "sessions", "--usage")
    assert (total["sessions"], total["sessions_read"]) == (2, 1)
    assert total["measured"]["cost"] is not None
    (unread,) = total["sessions_unreadable"]
    assert unread["costs_nothing"] is True


@pytest.mark.parametrize(
    ("agent", "fixture", "where"),
    [
        ("claude", "01-plain-2.1", "projects/-home-user-proj"),
        ("pi", "header-only", "sessions/--home-user-proj--"),
    ],
)
@pytest.mark.parametrize("data", [b"", b"\n  \r\n\t\n"], ids=["0-bytes", "blank-lines"])
def test_an_empty_file_in_a_folder_costs_nothing_as_in_ccusage(
    tmp_path: Path, agent: str, fixture: str, where: str, data: bytes
) -> None:
    """An empty session file (no byte, or only blank lines) holds no bill: it is
    listed with its reason and its lines, and the folder's total stays known, equal to
    ccusage's sum, which lists nothing for it. Before, one such file made the whole
    folder's cost unknown (the CLI walk's "10,000 empty files")."""
    folder = tmp_path / fixture
    shutil.copytree(LOGS / agent / fixture, folder)
    (folder / where / "99999999-9999-4999-8999-999999999999.jsonl").write_bytes(data)
    for flags in (("--usage",), ()):
        total = _total(folder, *flags)
        empty = next(u for u in total["sessions_unreadable"] if "99999999" in u["session"])
        assert empty["problems"] == ["log is empty (no line with an entry)"]
        assert (empty["lines"], empty["costs_nothing"]) == (data.count(b"\n"), True)
        assert total["measured"]["cost"] == total["measured"]["known_cost"]
    if agent == "claude":  # ccusage on this very folder, the empty file in it
        base = folder / "projects"
        files = {p.relative_to(base).as_posix(): p.read_bytes() for p in base.rglob("*.jsonl")}
        theirs = run_ccusage("claude", files)["sessions"]
        ccusage = sum((Decimal(str(s["totalCost"])) for s in theirs), Decimal(0))
    else:
        ccusage = _ccusage_sum(agent, fixture)
    assert abs(Decimal(total["measured"]["cost"]) - ccusage) <= CENT_MICRO
    # The page's total reads the same rule.
    from budgetcore.ui.replay.state import ReplayPanel, with_logs  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), picked_folder(folder))
    (loaded,) = [x for x in panel.logs if "99999999" in x.name]
    assert (loaded.log, loaded.costs_nothing, loaded.lines) == (None, True, data.count(b"\n"))


def test_an_empty_file_alone_is_still_refused() -> None:
    """Given alone, an empty file is no session to replay: one line, exit 2."""
    result = run_cli(["replay", "--log", "-"], stdin=b"")
    assert result.code == 2
    assert "log is empty (no line with an entry)" in result.err
