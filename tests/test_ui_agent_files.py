"""The page reads the agents' files and folders as the CLI does (docs/page.md, issue
40): an SQLite database (OpenCode's opencode.db, Goose's sessions.db) gives one session
per session it holds, and a zstd-compressed Codex rollout (.jsonl.zst) is read
through the same decoder; each session's measured usage is the CLI's, to the token and
the cent. The browser's own walk of the same folders is tests/browser/
test_replay_page.py's."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from budgetcore.messages import CATALOGUE, t
from budgetcore.replay.logs.agents import AGENTS
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, with_logs
from tests.helpers import picked_folder, run_cli, shown

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def _cli(folder: Path) -> dict[str, dict[str, object]]:
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    out = {}
    for line in result.out.strip().splitlines()[:-1]:
        row = json.loads(line)
        measured = row["summary"]["log"]["measured"]
        out[row["session"]] = {k: measured[k] for k in ("requests", "input", "output", "cost")}
    return out


@pytest.mark.parametrize(
    "folder",
    [
        LOGS / "opencode" / "db" / "opencode",
        LOGS / "goose" / "totals" / "goose",
        LOGS / "goose" / "ledger" / "goose",
        LOGS / "codex-zst" / "compressed" / "sessions",
    ],
    ids=["opencode.db", "goose sessions.db", "goose usage_ledger", "codex .jsonl.zst"],
)
def test_the_page_reads_a_database_and_a_compressed_rollout_as_the_cli(folder: Path) -> None:
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    assert all(not loaded.error for loaded in panel.logs), [x.error for x in panel.logs]
    page = {}
    for loaded in panel.logs:
        assert loaded.measured is not None
        m = loaded.measured.as_dict()
        # The page names a session by the picked path (the folder's name first).
        page[loaded.name.split("/", 1)[1]] = {
            k: m[k] for k in ("requests", "input", "output", "cost")
        }
    cli = _cli(folder)
    assert page == cli
    assert len(page) >= 1


def test_every_agent_has_its_name_in_the_page_s_catalogue() -> None:
    """The page names a session's agent from the catalogue (``replay.log.format.<key>``):
    an agent without an entry broke the whole panel (a KeyError in the browser)."""
    missing = [a.key for a in AGENTS if f"replay.log.format.{a.key}" not in CATALOGUE]
    assert missing == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "folder",
    sorted(p for p in LOGS.iterdir() if p.is_dir() and p.name not in ("asrun", "timed")),
    ids=lambda p: p.name,
)
def test_each_agent_s_sessions_render_in_the_page(folder: Path, lang: str) -> None:
    for case in sorted(c for c in folder.iterdir() if c.is_dir()):
        panel = with_logs(ReplayPanel(), picked_folder(case))
        for i in range(len(panel.logs)):
            chosen = dataclasses.replace(panel, log_index=i)
            page = str(logs_html(chosen, lang, wide=True))
            assert page
            if folder.name != "claude":
                # Issues 37 and 40: the backtest names the agent's own runtime (or
                # that it has none), never Claude Code's borrowed one.
                assert 'data-as-run="claude-code"' not in page, case


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_when_kimi_s_model_is_assumed(tmp_path: Path, lang: str) -> None:
    """As the CLI's "Model assumed:" line (ParsedLog.model_assumed), in the page's words:
    ccusage's guess without a config.toml, the configured default with one."""
    home = tmp_path / "kimi"
    shutil.copytree(LOGS / "kimi" / "subagent", home)
    panel = with_logs(ReplayPanel(), picked_folder(home))
    assert 'data-model-assumed="guess"' in str(logs_html(panel, lang, wide=True))
    (home / "config.toml").write_text('default_model = "k"\n[models.k]\nmodel = "kimi-k3"\n')
    panel = with_logs(ReplayPanel(), picked_folder(home))
    assert 'data-model-assumed="config"' in str(logs_html(panel, lang, wide=True))
    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "pi" / "basic"))
    assert "data-model-assumed" not in str(logs_html(panel, lang, wide=True))


@pytest.mark.parametrize(
    ("line", "known"),
    [
        # A response with no usage: it may have cost something no one can read.
        (b'{"type":"assistant","message":{"role":"assistant"}}\n', False),
        # Only a user's message: nothing in it carries a bill (agents.costs_nothing).
        (b'{"type":"user","message":{"role":"user"}}\n', True),
    ],
)
def test_the_page_s_folder_total_is_unknown_while_a_session_is_unreadable_as_the_cli_s(
    tmp_path: Path, line: bytes, known: bool
) -> None:
    """The CLI's folder cost is unknown while a session of it could not be read and may
    have cost something (what that one cost no one knows); the page's total showed the
    sum of the others. A session that holds nothing that may carry a bill leaves both
    known, at the sum of the others."""
    folder = tmp_path / "mixed"
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", folder / "pi")
    (folder / "broken.jsonl").write_bytes(line)
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    assert [x.log is None for x in panel.logs].count(True) == 1
    html = logs_html(panel, "en", wide=True)
    total_row = html.split('data-session-row="total"', 1)[1].split("</tr>", 1)[0]
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    cli = json.loads(result.out.strip().splitlines()[-1])["total"]["measured"]
    if not known:
        assert cli["cost"] is None
        assert 'data-value="null"' in total_row
        return
    assert Decimal(cli["cost"]) == Decimal("0.0444")  # pi/basic's own, below
    assert f'data-value="{cli["cost"]}"' in total_row


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals"])
def test_a_totals_only_session_says_why_it_has_no_backtest(case: Path, lang: str) -> None:
    """Goose and Droid keep per-session totals only: no "As run" line, and the page says
    why (the walk found it silent)."""
    panel = with_logs(ReplayPanel(), picked_folder(case))
    page = str(logs_html(panel, lang, wide=True))
    assert "data-replay-totals-only" in page, case
    assert "data-as-run=" not in page
    assert ("No backtest" in page) == (lang == "en")


@pytest.mark.parametrize(
    "case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "copilot" / "events"]
)
def test_a_totals_only_folder_replays_with_timing_on_without_a_traceback(case: Path) -> None:
    """With the replay's timing box on, a totals-only folder (no request to replay) raised
    ValueError from min() of no times out of the page's reduce."""
    from budgetcore.ui.events import (  # noqa: PLC0415
        JobStep,
        ReplayFieldTyped,
        ReplaySourceChosen,
        ReplayToggled,
    )
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = reduce(reduce(initial_state(), ReplayToggled(True)), ReplaySourceChosen("log"))
    state = dataclasses.replace(state, replay=with_logs(state.replay, picked_folder(case)))
    state = reduce(reduce(state, ReplayFieldTyped("replay.timing", "true")), JobStep("replay"))
    assert "data-replay-totals-only" in str(logs_html(state.replay, "en", wide=True))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "case",
    [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "goose" / "ledger"],
)
def test_the_ledger_lists_totals_and_summed_usage_apart_from_the_requests(
    case: Path, lang: str
) -> None:
    """The fourteenth walk (1440, both languages): a Goose session of totals said
    "requests: session totals (not requests) in 1 line" in its ledger, a line that
    contradicts its own label; so did a Goose ledger's summed usage beside its
    requests. They are billed and not requests: a line of their own, as the CLI's
    ledger gives them."""
    panel = with_logs(ReplayPanel(), picked_folder(case))
    for index in range(len(panel.logs)):
        page = str(logs_html(dataclasses.replace(panel, log_index=index), lang, wide=True))
        for cell in re.findall(r'<li data-ledger="requests">(.*?)</li>', page, re.S):
            for key in ("replay.logs.series-totals", "replay.logs.series-summed"):
                assert CATALOGUE[key][lang == "zh"].split("{")[0] not in cell
        if "20260801" in panel.logs[index].name or "totals" in case.name:
            assert 'data-ledger="billed"' in page


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "copilot" / "events"]
)
def test_a_totals_only_session_calls_its_totals_totals(case: Path, lang: str) -> None:
    """Walk of December 2026: a Goose, Droid or Copilot CLI session read "on abandoned
    branches: 1", its ledger "session totals 0 replayed, 1 abandoned", and "The log
    names no model." above a usage table that names it. The totals are neither
    requests nor branches (the CLI's ledger: "session totals (not requests)"), and with
    no request there is no log model to replay with."""
    panel = with_logs(ReplayPanel(), picked_folder(case))
    page = str(logs_html(panel, lang, wide=True))
    read = re.search(r"<p data-replay-log=[^>]*>(.*?)</p>", page)
    assert read is not None
    said = {"en": ("per-model totals, not requests", "abandoned"), "zh": ("按模型的合计", "废弃")}
    assert said[lang][0] in read.group(1)
    assert said[lang][1] not in read.group(1)
    ledger = CATALOGUE["replay.logs.series-totals"][lang == "zh"].split("{")[0]
    assert ledger in page
    assert CATALOGUE["replay.logs.series"][lang == "zh"].split("{on}")[1].split("{")[0] not in page
    assert "data-log-model" not in page
    assert CATALOGUE["replay.logs.no-model"][lang == "zh"] not in page


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "copilot" / "events"]
)
def test_a_totals_only_session_s_usage_is_not_said_to_be_per_request(case: Path, lang: str) -> None:
    """Third walk of December 2026 (1440 EN, Droid and Goose): above a usage table whose
    requests read "unknown", the note said "What the log says every billed request used
    ..., priced per request": the log holds no request, only the session's totals, and
    they are what is priced."""
    panel = with_logs(ReplayPanel(), picked_folder(case))
    page = html.unescape(str(logs_html(panel, lang, wide=True)))
    per_request = CATALOGUE["replay.logs.measured-note"][lang == "zh"]
    totals = CATALOGUE["replay.logs.measured-note-totals"][lang == "zh"]
    assert per_request not in page
    assert totals in page
    # A session of requests keeps the per-request note.
    requests = with_logs(ReplayPanel(), picked_folder(LOGS / "pi" / "v1-linear"))
    page = html.unescape(str(logs_html(requests, lang, wide=True)))
    assert per_request in page
    assert totals not in page


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "copilot" / "events"]
)
def test_a_totals_only_session_has_no_turn_to_tune_and_says_so(case: Path, lang: str) -> None:
    """Second walk of December 2026: Tune on a Goose folder said, once per session, "Log
    file has no request on the replayed branch of series session totals (1 on
    abandoned branches)", in English inside the Chinese sentence. A session of totals
    has no turn, as the CLI's ``tune`` says (``totals_problem``), in the page's words."""
    from budgetcore.ui.events import LanguageChosen, ReplaySourceChosen, TuneToggled  # noqa: PLC0415
    from budgetcore.ui.replay.state import turns_of  # noqa: PLC0415
    from budgetcore.ui.tune.view import render_tune  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), picked_folder(case))
    source = turns_of(dataclasses.replace(panel, source="log"))
    assert [p.code for p in source.error] == ["problem.log-totals-only"]
    state = reduce(reduce(initial_state(), LanguageChosen(lang)), ReplaySourceChosen("log"))
    state = dataclasses.replace(state, replay=with_logs(state.replay, picked_folder(case)))
    errors = str(render_tune(reduce(state, TuneToggled(True))).html["tune-errors"])
    lines = re.findall(r"<li>(.*?)</li>", errors)
    assert lines
    assert len(lines) == len(set(lines))  # one line however many sessions say it
    said = {"en": "keeps only per-session totals", "zh": "只保存每个会话的总量"}[lang]
    assert all(said in line for line in lines), lines
    assert "session totals" not in errors.replace("per-session totals", "")
    assert "abandoned" not in errors
    assert "废弃" not in errors
    if lang == "zh":  # the agents' and files' names and "token" are the only Latin
        words = set(re.findall(r"[A-Za-z][\w.]*", " ".join(lines)))
        assert words <= {"Goose", "Droid", "Copilot", "CLI", "events.jsonl", "token"}, words


@pytest.mark.parametrize(
    "case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "copilot" / "events"]
)
def test_a_totals_only_session_bills_no_known_count_of_requests_in_the_sessions_table(
    case: Path,
) -> None:
    """Second walk of December 2026: the sessions table of a Goose or Droid folder said
    "other requests billed: 1" for each session (its totals line), beside a usage table
    that counts 0 requests and says totals are no requests. The count is unknown."""
    panel = with_logs(ReplayPanel(), picked_folder(case))
    page = str(logs_html(panel, "en", wide=True))
    other = CATALOGUE["replay.logs.col.other"][0]
    cells = re.findall(rf'<td data-label="{re.escape(other)}"[^>]*>([^<]*)</td>', page)
    if len(panel.logs) > 1:  # the table of an import's sessions, with its total row
        assert cells == ["—"] * (len(panel.logs) + 1), cells
    else:
        assert cells == []
    # The ledger still counts the totals' lines, as the CLI's does.
    assert CATALOGUE["replay.logs.series-totals"][0].split("{")[0] in page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_compaction_is_placed_among_the_turns_and_never_after_turn_0(lang: str) -> None:
    """Second walk of December 2026: Copilot CLI's compaction, in a session that keeps
    totals and has no turn, read "line 4: compacted after turn 0"."""
    from budgetcore.replay.logs.compaction import LogCompaction  # noqa: PLC0415
    from budgetcore.ui.replay.logs import _compaction_text  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "copilot" / "events"))
    page = str(logs_html(panel, lang, wide=True))
    items = re.findall(r"<li data-compaction=[^>]*>([^<]*)</li>", page)
    assert len(items) == 1
    assert CATALOGUE["replay.log.compaction-when.totals"][lang == "zh"] in items[0]
    after = CATALOGUE["replay.log.compaction-when.after"][lang == "zh"]
    assert after.replace("{request}", "0") not in items[0]
    first = _compaction_text(LogCompaction(7, 0, "auto", 150_000, 20_000), lang)
    assert CATALOGUE["replay.log.compaction-when.first"][lang == "zh"] in first
    assert " 0" not in first.replace("150,000", "")
    third = _compaction_text(LogCompaction(9, 3, None, None, None), lang)
    assert after.replace("{request}", "3") in third
    # A Codex rollout's compaction, after its first request, as before.
    codex = with_logs(ReplayPanel(), picked_folder(LOGS / "codex" / "compaction" / "sessions"))
    said = re.findall(r"<li data-compaction=[^>]*>([^<]*)</li>", str(logs_html(codex, lang)))
    assert said == [_compaction_text(c, lang) for c in codex.log.main.compactions]  # type: ignore[union-attr]
    turns = [c.after_turn for c in codex.log.main.compactions]  # type: ignore[union-attr]
    assert turns
    assert all(t > 0 for t in turns)
    assert len(said) == len(turns)
    for x, n in zip(said, turns, strict=True):
        assert after.replace("{request}", f"{n:,}") in x, x


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "case", [LOGS / "droid" / "totals", LOGS / "goose" / "totals", LOGS / "copilot" / "events"]
)
def test_a_totals_only_sessions_usage_table_counts_its_requests_as_unknown(
    case: Path, lang: str
) -> None:
    """Walk of December 2026 (issue 42): the usage table of a session that keeps totals
    said "requests 0" beside the cost those requests made. The count is unknown."""
    panel = with_logs(ReplayPanel(), picked_folder(case))
    page = str(logs_html(panel, lang, wide=True))
    cells = re.findall(r'data-usage="requests"[^>]*>([^<]*)</td>', page)
    assert cells, page[:2000]
    assert set(cells) == {CATALOGUE["replay.logs.unknown"][lang == "zh"]}, cells


def test_a_compactions_trigger_is_said_in_chinese() -> None:
    """The seventh walk: claude/27-asrun-backtest's two compactions read "触发方式 auto"
    and "触发方式 manual" on the Chinese page, the log's own English words; a trigger
    word we do not know stays the log's, quoted as it was."""
    from budgetcore.replay.logs.compaction import LogCompaction  # noqa: PLC0415
    from budgetcore.ui.replay.logs import _compaction_text  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "claude" / "27-asrun-backtest"))
    zh = re.findall(r"<li data-compaction=[^>]*>([^<]*)</li>", str(logs_html(panel, "zh")))
    assert len(zh) == 2
    assert "(自动;" in zh[0]
    assert "(手动;" in zh[1]
    assert not any(re.search(r"\b(auto|manual)\b", s) for s in zh)
    en = re.findall(r"<li data-compaction=[^>]*>([^<]*)</li>", str(logs_html(panel, "en")))
    assert "(automatic;" in en[0]
    assert "(manual;" in en[1]
    odd = _compaction_text(LogCompaction(3, 1, "hook", 9_000, None), "zh")
    assert "触发方式 hook" in odd


@pytest.mark.parametrize("folder", ["compaction-db", "compaction-files"])
def test_an_opencode_part_is_said_in_chinese_after_its_own_type(folder: str) -> None:
    """The eighth walk of December 2026 (390 px, Chinese): OpenCode's ledger listed
    "text part 1", "step-start part 1" among "压缩部件(自动) 1": the type is the log's,
    the word after it the reader's, which stayed English."""
    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "opencode" / folder))
    assert panel.log is not None
    said = html.unescape(str(logs_html(panel, "zh", wide=True)))
    assert "text 部件" in said
    assert not re.search(r"[\w-]+ part\b", said), re.findall(r"[\w-]+ part\b", said)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_mixed_folder_gives_one_total_per_agent_as_the_cli(tmp_path: Path, lang: str) -> None:
    """The tenth walk (1440 and 390 px, both languages): a folder of pi, Gemini CLI and
    Claude Code sessions and one torn file showed one total, "unknown (at least $…)",
    and nothing to say which agent's cost was known; the CLI gives one total per agent
    (its "By agent", ``agents`` in JSON Lines), the sessions not read as one more."""
    folder = tmp_path / "logs"
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", folder / "pi")
    shutil.copytree(LOGS / "gemini" / "no-model" / "tmp", folder / "gemini")
    shutil.copytree(LOGS / "claude" / "27-asrun-backtest", folder / "claude")
    (folder / "torn.jsonl").write_bytes(b'{"type":"assistant","message":{"role":"assis')
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    page = str(logs_html(panel, lang, wide=True))
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    cli = json.loads(result.out.strip().splitlines()[-1])["total"]["agents"]
    assert len(cli) == 4
    assert f'data-agent-totals="{len(cli)}"' in page
    unknown = CATALOGUE["replay.logs.unknown"][lang == "zh"]
    for group in cli:
        row = page.split(f'data-agent-row="{group["agent"] or "unread"}"', 1)[1]
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.split("</tr>", 1)[0])
        assert cells[0] == f"{group['sessions']:,}"
        assert cells[1] == (unknown if group["requests"] is None else f"{group['requests']:,}")
        assert f'data-value="{group["cost"] or "null"}"' in row.split("</tr>", 1)[0]
    # The page's one agent of a folder says no more than its sessions' total does.
    one = with_logs(ReplayPanel(), picked_folder(LOGS / "pi" / "branch"))
    assert "data-agent-totals" not in str(logs_html(one, lang, wide=True))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_agent_s_session_not_read_makes_that_agent_s_total_unknown(
    tmp_path: Path, lang: str
) -> None:
    """A pi file read to its end with no request in it, but a response without usage
    (it may have cost something), sat in a "not read" row while pi's row showed the
    other session's $0.0444 as pi's whole cost: a partial total that looked complete.
    The read told whose file it was; it counts as pi's, and pi's total is unknown (at
    least $0.0444), on the page as in the CLI's table and JSON."""
    folder = tmp_path / "logs"
    shutil.copytree(LOGS / "pi" / "assistant-no-usage" / "sessions", folder / "pi")
    shutil.copytree(LOGS / "opencode" / "db" / "opencode", folder / "opencode")
    # A truncated database named as OpenCode's: its sessions are unknown, OpenCode's too.
    db = (LOGS / "opencode" / "db" / "opencode" / "opencode.db").read_bytes()
    (folder / "old").mkdir()
    (folder / "old" / "opencode.db").write_bytes(db[: len(db) // 2])
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    groups = {
        g["agent"]: g for g in json.loads(result.out.strip().splitlines()[-1])["total"]["agents"]
    }
    assert set(groups) == {"pi", "opencode"}  # no group of unknown agent
    pi = groups["pi"]
    assert (pi["sessions"], pi["sessions_not_read"], pi["requests"], pi["cost"]) == (
        2,
        1,
        None,
        None,
    )
    assert Decimal(pi["known_cost"]) == Decimal("0.0444")
    opencode = groups["opencode"]  # never "0 requests" of a session no one read
    assert (opencode["sessions"], opencode["sessions_not_read"]) == (3, 1)
    assert (opencode["requests"], opencode["cost"]) == (None, None)
    table = run_cli(["replay", "--log", str(folder), "--usage", "--format", "table"]).out
    (row,) = [x for x in table.split("By agent\n")[1].splitlines() if x.strip().startswith("pi ")]
    assert "2 (1 not read)" in row
    assert "unknown (≥ $0.0444)" in row
    assert "2 sessions could not be read, and what they cost no one knows" in table
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    page = str(logs_html(panel, lang, wide=True))
    assert 'data-agent-row="unread"' not in page
    row = page.split('data-agent-row="pi"', 1)[1].split("</tr>", 1)[0]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    said = {"en": "2 (1 not read)", "zh": "2(其中 1 个未读取)"}[lang]
    assert cells[:2] == [said, CATALOGUE["replay.logs.unknown"][lang == "zh"]]
    assert 'data-value="null"' in row
    row = page.split('data-agent-row="opencode"', 1)[1].split("</tr>", 1)[0]
    assert re.findall(r"<td[^>]*>(.*?)</td>", row)[0].startswith("3")
    assert 'data-value="null"' in row


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    ("name", "agent", "source"),
    [
        ("opencode.db", "OpenCode", LOGS / "opencode" / "db" / "opencode" / "opencode.db"),
        (
            "sessions.db",
            "Goose",
            LOGS / "goose" / "totals" / "goose" / "data" / "sessions" / "sessions.db",
        ),
    ],
    ids=["opencode", "goose"],
)
def test_a_truncated_database_is_named_by_its_agent_in_the_page(
    tmp_path: Path, lang: str, name: str, agent: str, source: Path
) -> None:
    """The tenth walk (1440 px, a folder with one damaged file of each kind): an
    opencode.db cut after its first 3,000 bytes, beside good sessions, stopped the
    whole panel with an internal error (a KeyError: its sentence names the database's
    {file}, which the page kept for a line's place alone); the CLI says "is named as
    OpenCode's database (opencode.db), but no table of it can be read"."""
    folder = tmp_path / "data"
    shutil.copytree(LOGS / "pi" / "basic" / "sessions", folder / "pi")
    (folder / "db").mkdir()
    (folder / "db" / name).write_bytes(source.read_bytes()[:3000])
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    (bad,) = [x for x in panel.logs if x.log is None]
    assert bad.error[0].code == "log-database-damaged"
    page = html.unescape(str(logs_html(panel, lang, wide=True)))
    assert agent in page
    assert f"({name})" in page
    chosen = dataclasses.replace(panel, log_index=panel.logs.index(bad))
    assert f"({name})" in html.unescape(str(logs_html(chosen, lang, wide=True)))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_sessions_cost_column_is_not_called_the_log_s_own(lang: str) -> None:
    """The tenth walk (1440 px, a pi folder): the sessions table's column "cost as
    logged" showed $0.0444 for a session whose own logged cost (pi's usage.cost.total)
    is $0.04125: the column is the logged usage at the registry's prices, the CLI's
    "measured cost"; the log's own cost is the usage table's note."""
    folder = LOGS / "pi" / "basic" / "sessions"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    measured = json.loads(result.out.strip().splitlines()[0])["summary"]["log"]["measured"]
    assert Decimal(measured["logged_cost"]) != Decimal(measured["cost"])
    two = tuple(picked_folder(LOGS / "pi" / "branch")) + tuple(picked_folder(folder))
    page = html.unescape(str(logs_html(with_logs(ReplayPanel(), two), lang, wide=True)))
    head = re.search(r"<thead>(.*?)</thead>", page)
    assert head is not None
    assert {"en": "measured cost", "zh": "实测花费"}[lang] in head.group(1)
    assert "logged" not in head.group(1)
    assert "日志" not in head.group(1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_events_file_whose_session_the_store_bills_says_so(lang: str) -> None:
    """A Copilot CLI events.jsonl beside the session store that bills its session is
    read (a session the store lacks is billed from it, issue 40): it is a file of the
    store's session, in its ledger, its copy said in the page's language, not a session
    of its own (copilot40c: it was a second session, "not read", for one session id)
    nor a file left unread (it was listed so, with the store "read instead")."""
    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "copilot" / "store" / "copilot"))
    assert panel.log_not_read == ()
    assert [x for x in panel.logs if x.log is None] == []
    (billed,) = [x for x in panel.logs if x.name.endswith("session-store.db#session-1")]
    assert billed.log is not None
    (events,) = billed.log.ledger[1:]
    assert events.name.endswith("session-state/session-1/events.jsonl")
    page = html.unescape(str(logs_html(panel, lang, wide=True)))
    assert t("replay.logs.copy.copilot-by-store", lang) in page


def test_an_events_file_picked_beside_its_store_counts_one_copy_as_one() -> None:
    """The sixteenth walk (1440 px, English): a Copilot CLI events.jsonl picked in the
    file box with the session store that bills its session (no folder, so not folded
    into the store's ledger) said "holds 1 records with usage". It is now folded by the
    session id its session.start holds (copilot40f): a file of the store's session A,
    whose ledger says its one usage line a copy of that session's."""
    store = LOGS / "copilot" / "store-events"
    sid = "dddddddd-0000-4000-8000-0000000000a1"
    events = store / "session-state" / sid / "events.jsonl"
    picked = (
        ("session-store.db", (store / "session-store.db").read_bytes()),
        ("events.jsonl", events.read_bytes()),
    )
    panel = with_logs(ReplayPanel(), picked)
    assert not any(x.name == "events.jsonl" for x in panel.logs)
    a = next(i for i, x in enumerate(panel.logs) if x.name == f"session-store.db#{sid}")
    panel = dataclasses.replace(panel, log_index=a)
    page = re.sub(r"<[^>]+>", " ", html.unescape(str(logs_html(panel, "en", wide=True))))
    assert re.search(r"events\.jsonl\s+lines read:\s+4\s", page)
    assert re.search(r"copies folded:\s+a session the session store bills 1\s", page)
    assert not re.search(r"\b1 records\b", page)


@pytest.mark.parametrize(
    ("folder", "twin"),
    [(LOGS / "codex-zst" / "both" / "sessions", ".jsonl.zst")],
    ids=["codex"],
)
def test_a_file_whose_sessions_another_holds_is_not_called_no_session_log(
    folder: Path, twin: str
) -> None:
    """The tenth walk (1440 px, a Codex folder with a rollout and its .jsonl.zst, a
    Copilot CLI folder with its session store): the page said "Files of the import that
    are not session logs, not read: 1 (first: …events.jsonl)" of a session log whose
    sessions the store holds."""
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    assert panel.log_not_read
    assert panel.log_not_read[0][0].endswith(twin)
    page = shown(logs_html(panel, "en", wide=True))
    assert "not session logs" not in page
    # What the file is, said after it (the third held-out round: one sentence of two
    # guesses, "no agent writes them ..., or another file ... holds the same sessions").
    why = t(panel.log_not_read[0][1], "en")
    assert f"{panel.log_not_read[0][0]} ({why})" in page
    assert "beside it" in why or "beside them" in why
    zh = shown(logs_html(panel, "zh", wide=True))
    assert f"{panel.log_not_read[0][0]}({t(panel.log_not_read[0][1], 'zh')})" in zh


_GLUED_QWEN = (
    b'{"uuid":"u1","parentUuid":null,"sessionId":"s1","type":"user",'
    b'"timestamp":"2026-08-17T14:00:00.000Z","cwd":"/p","version":"0.21.13",'
    b'"message":{"role":"user","parts":[{"text":"x"}]}}{"uuid":"u2"}\n'
)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Log file line 1 holds several JSON records with no newline between them"),
        ("zh", "日志文件第 1 行包含多条 JSON 记录"),
    ],
)
def test_records_glued_on_one_line_say_their_line_once(lang: str, said: str) -> None:
    """The eleventh walk: a Qwen Code file of two records on one line read "line 1 line
    1 holds several JSON records" in the sessions table ("第 1 行第 1 行" in Chinese): the
    sentence names its line itself, and its place said the line again."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), (("p/chats/s1.jsonl", _GLUED_QWEN),))
    (loaded,) = panel.logs
    assert loaded.error
    text = problem_text(loaded.error[0], lang)
    assert text.startswith(said), text


@pytest.mark.parametrize(
    ("name", "data", "en", "zh"),
    [
        (
            "tasks/1700000000200/ui_messages.json",
            b"ui_messages = {}\n",
            "but it is not valid JSON",
            "但它不是有效的 JSON",
        ),
        ("notes.json", b"{ torn\n", "and it is not valid JSON", "并且它不是有效的 JSON"),
        (
            "notes.json",
            b"{\n\xff}\n",
            "and it is not UTF-8 text (byte 3)",
            "并且它不是 UTF-8 文本(第 3 个字节)",
        ),
    ],
    ids=["named-not-json", "document-not-json", "document-not-utf8"],
)
def test_why_a_json_document_cannot_be_read_is_said_in_the_page_s_language(
    name: str, data: bytes, en: str, zh: str
) -> None:
    """The eleventh walk (1440 and 390, Chinese): a file named as Cline's that is not
    JSON read "按名称是 Cline 的会话文件(...),但它is not valid JSON": what was wrong
    with the document was its English rule, set into the Chinese sentence."""
    from budgetcore.ui.problems import problem_text  # noqa: PLC0415

    panel = with_logs(ReplayPanel(), ((f"p/{name}", data),))
    (loaded,) = panel.logs
    assert loaded.error
    assert problem_text(loaded.error[0], "en").endswith(en)
    assert problem_text(loaded.error[0], "zh").endswith(zh)


def test_a_database_session_with_no_request_counts_its_lines_as_the_page_does() -> None:
    """The eleventh walk: a Goose database at schema 5 holds a session of totals and one
    opened with no model call (1 row read). The page's sessions table gave that session
    its 1 line and the folder 4; the CLI gave it "—" and the folder 3, since a
    database's session with no request lost its lines where a file's keeps them."""
    folder = LOGS / "goose" / "schema-v5" / "goose"
    result = run_cli(["replay", "--log", str(folder), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = json.loads(result.out.strip().splitlines()[-1])["total"]
    (unread,) = total["sessions_unreadable"]
    panel = with_logs(ReplayPanel(), picked_folder(folder))
    (page,) = [x for x in panel.logs if x.log is None]
    assert (unread["lines"], total["lines"]) == (page.lines, 4)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_says_what_a_session_s_file_lacks(lang: str) -> None:
    """As the CLI's line (ParsedLog.lacks), in the page's language: an OpenCode database
    of its message table alone, and a Goose session from before its database."""
    for folder, key in (
        (LOGS / "opencode" / "messages-alone", "replay.log.lacks.opencode-messages-alone"),
        (LOGS / "goose" / "pre-db-jsonl", "replay.log.lacks.goose-jsonl-no-model"),
    ):
        panel = with_logs(ReplayPanel(), picked_folder(folder))
        page = html.unescape(str(logs_html(panel, lang, wide=True)))
        assert f'data-log-lacks="{key}"' in page
        assert t(key, lang) in page
    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "opencode" / "db"))
    assert "data-log-lacks" not in str(logs_html(panel, lang, wide=True))


@pytest.mark.parametrize(("lang", "said"), [("en", "none readable"), ("zh", "无可读的表")])
def test_a_database_of_no_readable_table_says_so_in_the_page_s_language(
    lang: str, said: str
) -> None:
    """A database picked alone whose tables SQLite cannot read, of no agent's name: its
    tables were said "none readable" in the Chinese sentence too (the seventeenth
    stop)."""
    panel = with_logs(ReplayPanel(), (("store.db", b"SQLite format 3\x00" + b"\x5a" * 5000),))
    page = html.unescape(str(logs_html(panel, lang, wide=True)))
    assert said in page
    if lang == "zh":
        assert "none readable" not in page


@pytest.mark.parametrize(
    ("lang", "place"), [("en", "msg_nr2.json line 1"), ("zh", "msg_nr2.json 第 1 行")]
)
def test_a_skipped_line_of_a_session_s_other_file_is_placed_in_the_page_s_language(
    lang: str, place: str
) -> None:
    """The skipped lines' numbers of a session read from several files name each line's
    file and its line in the page's language: an OpenCode message file's line read
    "行号:no-role/…/msg_nr2.json line 1" on the Chinese page (the fifteenth walk)."""
    panel = with_logs(ReplayPanel(), picked_folder(LOGS / "opencode" / "no-role"))
    page = html.unescape(str(logs_html(panel, lang, wide=True)))
    skipped = page.split("data-replay-skipped", 1)[1].split("</p>", 1)[0]
    assert place in skipped
    if lang == "zh":
        assert " line " not in skipped


@pytest.mark.parametrize(("lang", "said"), [("en", "not requests: none"), ("zh", "非请求条目:无")])
def test_a_file_of_no_entry_says_none_in_the_page_s_language(lang: str, said: str) -> None:
    """A file whose every line is malformed holds no kind of entry: the Chinese page
    said "非请求条目:none" (an OpenCode message file picked alone, the fifteenth walk)."""
    path = LOGS / "opencode" / "no-role" / "opencode" / "storage" / "message" / "ses_nr"
    panel = with_logs(ReplayPanel(), (("msg_nr2.json", (path / "msg_nr2.json").read_bytes()),))
    page = html.unescape(str(logs_html(panel, lang, wide=True)))
    assert said in page


def _options_note(files: tuple[tuple[str, bytes], ...], lang: str) -> str:
    from budgetcore.ui.events import (  # noqa: PLC0415
        JobStep,
        ReplayLogsLoaded,
        ReplaySourceChosen,
        ReplayToggled,
    )
    from budgetcore.ui.replay.view import render_replay  # noqa: PLC0415
    from budgetcore.ui.update import initial_state, reduce  # noqa: PLC0415

    state = initial_state(lang=lang, lang_chosen=True)
    for event in (ReplayToggled(True), ReplaySourceChosen("log"), ReplayLogsLoaded(files)):
        state = reduce(state, event)
    screen = render_replay(reduce(state, JobStep("replay")))
    return html.unescape(str(screen.html["replay-options-note"]))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_note_of_what_the_backtest_sets_names_the_provider_as_the_backtest_does(
    lang: str,
) -> None:
    """The options note says why no cache is modelled as the backtest's own line does:
    a Cline 3.x task that names no model read "this provider (unknown)", a machine word
    on the Chinese page, and an OpenCode message of google's model "(google)", the
    registry's key, where the backtest says Google (the fifteenth walk)."""
    from budgetcore.ui.replay.backtest import provider_name  # noqa: PLC0415

    note = _options_note(picked_folder(LOGS / "cline" / "v3"), lang)
    assert note
    assert "unknown" not in note
    g4 = LOGS / "opencode" / "model-names" / "opencode" / "storage" / "message"
    files = tuple((p.name, p.read_bytes()) for p in sorted(g4.rglob("msg_g4.json")))
    note = _options_note(files, lang)
    assert f"({provider_name('google', lang)})" in note
    assert "(google)" not in note


def test_a_cline_session_folder_s_own_side_files_are_said_as_cline_s(tmp_path: Path) -> None:
    """Cline 4 writes beside a session's ``<id>.messages.json`` its ``<id>.json``
    manifest, a ``<id>.compaction.json`` sidecar and ``hooks.jsonl`` (RUNTIMES.md,
    "Session logs"). The manifest and sidecar were "no agent we read writes such a
    file", and hooks.jsonl a session of its own, "no usable request in this Claude Code
    file", which made the folder's total and Cline's unknown (the fifteenth walk): each
    is Cline's, not read, with its reason, in the CLI and the page alike."""
    home = tmp_path / "cline"
    shutil.copytree(LOGS / "cline" / "v4", home)
    session = home / "sessions" / "cline-cli-session"
    (session / "hooks.jsonl").write_text('{"hookName": "PreToolUse"}\n')
    (session / "cline-cli-session.compaction.json").write_text('{"version": 1, "messages": []}')
    result = run_cli(["replay", "--log", str(home), "--usage", "--format", "jsonl"])
    assert result.code == 0, result.err
    total = json.loads(result.out.strip().splitlines()[-1])["total"]
    assert total["sessions"] == 1
    assert total["measured"]["cost"] == "0.03485100"
    for name in ("hooks.jsonl", "cline-cli-session.compaction.json", "cline-cli-session.json"):
        assert name in result.err
    assert "no agent we read writes" not in result.err
    panel = with_logs(ReplayPanel(), picked_folder(home))
    assert len(panel.logs) == 1
    why = {path.rsplit("/", 1)[-1]: key for path, key in panel.log_not_read}
    assert why == {
        "hooks.jsonl": "replay.not-read.cline-hooks",
        "cline-cli-session.compaction.json": "replay.not-read.cline-compaction",
        "cline-cli-session.json": "replay.not-read.cline-manifest",
    }
