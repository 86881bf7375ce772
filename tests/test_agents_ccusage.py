"""Differential test for the agents beyond Claude Code and Codex: ccusage 20.0.24 (a dev
dependency, run offline from node_modules) against budgetcore's measured usage, session
by session, on every fixture under tests/fixtures/logs/<agent>/ (docs/replay.md,
"Other agents").

Each fixture folder is laid out as the agent's data folder, and ccusage reads it through
the agent's data-dir variable (ccusage ``rust/crates/ccusage/src/adapter/<agent>/paths.rs``
@5816e640: ``PI_AGENT_DIR``, ``GEMINI_DATA_DIR``, ``QWEN_DATA_DIR``, ``KIMI_DATA_DIR``,
``OPENCODE_DATA_DIR``, ``AMP_DATA_DIR``, ``DROID_SESSIONS_DIR``, ``GOOSE_PATH_ROOT``);
we read the same folder with the folder planner the CLI uses. Tokens must be equal
(ccusage's output plus its "extra" tokens, the reasoning it keeps apart, is our output),
except where DIFFERENCES lists the exact figures and why; the cost, in ccusage's
``--mode calculate``, must be within $0.000001 of ours.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.replay.logs import read_sessions
from budgetcore.replay.logs.folder import plan_folder
from budgetcore.replay.logs.session import billed_once, run_session
from budgetcore.replay.logs.usage import measured_usage
from tests.ccusage import AGENT_DIRS, agent_sessions

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "tests" / "fixtures" / "logs"
CCUSAGE = ROOT / "node_modules" / "@ccusage" / "ccusage-linux-x64" / "bin" / "ccusage"
CENT_MICRO = Decimal("0.000001")


def _first_session_id(path: Path) -> str:
    """The ``sessionId`` the file itself names (ccusage's session id for Gemini CLI
    and Qwen Code)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return str(json.loads(text)["sessionId"])
    for line in text.splitlines():
        obj = json.loads(line)
        if "sessionId" in obj:
            return str(obj["sessionId"])
    raise AssertionError(f"{path} names no sessionId")


def _pi_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    return {Path(files[0]).stem.split("_", 1)[1]}


def _named_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    # A Gemini subagent's recording is a session of its own in ccusage (its own
    # sessionId) and a series of its parent here.
    return {_first_session_id(base / f) for f in files}


def _kimi_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    # ccusage reads a subagent's own wire.jsonl as a session named by its folder; we
    # read it as a series of its session (billed once on both sides). Kimi Code's
    # <session>/agents/<agent>/wire.jsonl are one session in both, named by <session>.
    return {
        Path(f).parents[2].name if Path(f).parent.parent.name == "agents" else Path(f).parent.name
        for f in files
    }


def _opencode_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    # A database session is named <file>#<session id>; its child sessions (subagent
    # tasks) are its series, sessions of their own in ccusage. A folder of message
    # files is named by its session.
    if "#" in log.name:
        top = log.name.rsplit("#", 1)[1]
        # (A summary:<series> series, the compactions' summary calls, is messages of
        # the session it summarises: no session of its own on either side.)
        children = (s.name for s in log.series if s.name.startswith("subagent:"))
        return {top} | {name.removeprefix("subagent:") for name in children}
    return {Path(files[0]).parent.name}


def _amp_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    # The thread's own id (T-<uuid>, its file's name; ccusage takes the document's
    # "id", which agent-cockpit's test thread has otherwise: fixture amp/ledger-id).
    named = json.loads((base / files[0]).read_text("utf-8")).get("id")
    return {named if isinstance(named, str) and named else Path(files[0]).stem}


def _droid_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    return {Path(files[0]).name.removesuffix(".settings.json")}


def _goose_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    if "#" not in log.name:  # a JSON Lines session from before the database: its name
        return {Path(files[0]).stem}
    return {log.name.rsplit("#", 1)[1]}  # sessions.db#<session id>


def _copilot_ids(base: Path, files: tuple[str, ...], log: Any) -> set[str]:
    return {s.name.removeprefix("conversation:") for s in log.series}


#: agent folder -> (ccusage command, its data-dir variable, the fixture's data folder
#: inside each fixture (tests/ccusage.AGENT_DIRS), which ccusage session ids one of our
#: sessions covers)
IDS: dict[str, Callable[[Path, tuple[str, ...], Any], set[str]]] = {
    "pi": _pi_ids,
    "gemini": _named_ids,
    "qwen": _named_ids,
    "kimi": _kimi_ids,
    "opencode": _opencode_ids,
    "amp": _amp_ids,
    "droid": _droid_ids,
    "goose": _goose_ids,
    "copilot": _copilot_ids,
}
AGENTS = {agent: (*AGENT_DIRS[agent], ids) for agent, ids in IDS.items()}

_CUSTOM_MODEL = (
    "a Droid session whose model is a custom model's id (custom:<display name>-<index>): "
    "ccusage 20.0.24 reads no Factory customModels (probed with HOME/.factory/"
    "settings.json) and prices the id at $0 (missingPricing); read with the Factory "
    "folder, we price the model its custom model sends (tests/test_held_out_shapes.py), "
    "and its data folder alone, as ccusage reads it, leaves the cost unknown, never $0"
)

#: (agent, fixture, session id) -> (our tokens, ccusage's tokens, why): input, cache
#: write, cache read, output.
DIFFERENCES: dict[tuple[str, str, str], tuple[tuple[int, ...], tuple[int, ...], str]] = {
    ("qwen", "cached", "66666666-6666-4666-8666-666666666666"): (
        (500, 0, 2500, 200),
        (3000, 0, 2500, 200),
        "Qwen Code's promptTokenCount holds the cached tokens (Gemini API usage metadata); "
        "ccusage bills it whole as input and the cached part again as cache reads "
        "(adapter/qwen/parser.rs), we bill the uncached part as input",
    ),
    ("amp", "total-only", "T-cccccccc-cccc-4ccc-8ccc-cccccccccccc"): (
        (100, 200, 1000, 50),
        (100, 200, 1000, 395),
        "a ledger event with only tokens.total (345, the shape of ccusage's own Amp test): "
        "ccusage bills the total as output (utils.rs apply_total_token_fallback); which of "
        "those tokens were input and which output is not written, so we list the event as "
        "malformed with that reason",
    ),
    ("pi", "total-only", "0c0c0c0c-0000-4000-8000-000000000001"): (
        (1000, 500, 3000, 200),
        (1000, 500, 3000, 320),
        "an assistant message whose usage is totalTokens alone (120; frixaco/"
        "export-ai-sessions' pi fixture has {totalTokens: 12}): ccusage 20.0.24 bills the "
        "total as output; which of those tokens were input and which output is not "
        "written, so we list the line as malformed with that reason, as Amp's",
    ),
    ("pi", "summary-usage", "5c5c5c5c-0000-4000-8000-000000000001"): (
        (7500, 500, 4000, 700),
        (1500, 500, 4000, 300),
        "a compaction and a branch summary with the usage of the call that wrote them "
        "(pi-mono CompactionEntry.usage, BranchSummaryEntry.usage; held out in round "
        "10h): we bill both calls (4,000 + 2,000 input, 300 + 100 output) as summary "
        "calls at the session's model, $0.036075 as pi's own costs sum; ccusage 20.0.24 "
        "reads assistant messages alone and leaves them out",
    ),
    ("pi", "fork", "0f0f0f0f-0000-4000-8000-000000000002"): (
        (300, 500, 2100, 100),
        (2700, 2600, 3600, 600),
        "a fork's file holds its parent's entries again, ids, times and usage as written "
        "(pi-mono SessionManager.forkFrom @83378aad): the parent bills them, the fork its "
        "own response; ccusage 20.0.24 keys an entry by its file's session and bills the "
        "copies twice",
    ),
    ("gemini", "no-model", "5a5a5a5a-0000-4000-8000-000000000001"): (
        (100, 0, 0, 50),
        (0, 0, 0, 0),
        "a response that names no model (codemie-ai/codemie-code's Gemini fixture): "
        "ccusage 20.0.24 drops it (adapter/gemini/parser.rs build_event: no model, no "
        "event) and lists no session; we count the request, its cost unknown",
    ),
    ("gemini", "migrated", "5e5e5e5e-0000-4000-8000-000000000001"): (
        (3600, 0, 2000, 750),
        (6100, 0, 2000, 1250),
        "a session-*.json beside the session-*.jsonl Gemini CLI migrated it into on resume "
        "(chatRecordingService.ts initialize: every message copied, the same sessionId, "
        "the .json left): ccusage 20.0.24 reads both under one session id and bills the "
        "copied request (2,500 input + 500 output) twice; we read the .json as a file of "
        "the .jsonl's session, its messages copies folded by id",
    ),
    ("gemini", "migrated-cut", "5f5f5f5f-0000-4000-8000-000000000001"): (
        (3100, 0, 1500, 500),
        (5100, 0, 1500, 800),
        "a session-*.jsonl whose migration from its session-*.json was cut short (it "
        "holds b1, b2; the .json b1 to b4): ccusage 20.0.24 bills b2 (2,000 input + 300 "
        "output) from both files; we read the .json as a file of the .jsonl's session, "
        "its copies folded by id, and bill b4, which only the .json holds, once",
    ),
    ("amp", "ledger-id", "thread-d"): (
        (1500, 150, 750, 300),
        (1500, 150, 750, 400),
        "a ledger event whose tokens.total (1,000) is 100 above its parts and its "
        "message's cache counts (nashory/agent-cockpit's Amp test thread: 150 against "
        "135): ccusage 20.0.24 bills the remainder as output (utils.rs "
        "apply_total_token_fallback); what those tokens were is not written, so we bill "
        "the parts as written",
    ),
    ("kimi", "total-only", "9c9c9c9c-0000-4000-8000-000000000001"): (
        (1000, 0, 3000, 200),
        (1000, 0, 3000, 632),
        "a StatusUpdate whose token_usage is {total: 432} alone (nashory/agent-cockpit's "
        "Kimi test): ccusage 20.0.24 bills the total as output; which of those tokens were "
        "input and which output is not written, so we list the line as malformed, as Amp's",
    ),
    ("qwen", "no-uuid", "5b5b5b5b-0000-4000-8000-000000000001"): (
        (2600, 0, 400, 500),
        (3000, 0, 400, 500),
        "Qwen Code's promptTokenCount holds the cached tokens, as in qwen/cached (400 of "
        "the first request's 1,000); the second request's response, no "
        "candidatesTokenCount, is its totalTokenCount beyond its prompt (300) on both "
        "sides",
    ),
    ("goose", "unnamed", "missing-model"): (
        (1, 0, 0, 0),
        (0, 0, 0, 0),
        "a Goose session row whose model_config_json names no model (nashory/agent-"
        "cockpit's Goose test): ccusage 20.0.24 skips the row (goose/parser.rs "
        "row_to_entry: no model, no entry); we measure its tokens, their cost unknown",
    ),
    ("goose", "unnamed", "missing-time"): (
        (1, 0, 0, 0),
        (0, 0, 0, 0),
        "a Goose session row with an empty created_at: ccusage 20.0.24 skips it (no "
        "timestamp, no entry); a total needs no time to be billed, so we measure it",
    ),
    ("droid", "custom-models", "eeeeeeee-0000-4000-8000-000000000001"): (
        (1000, 500, 3000, 200),
        (1000, 500, 3000, 200),
        _CUSTOM_MODEL,
    ),
    ("droid", "custom-models", "eeeeeeee-0000-4000-8000-000000000002"): (
        (400, 0, 0, 50),
        (400, 0, 0, 50),
        _CUSTOM_MODEL,
    ),
    ("droid", "custom-models", "eeeeeeee-0000-4000-8000-000000000003"): (
        (2000, 0, 1000, 100),
        (2000, 0, 1000, 100),
        _CUSTOM_MODEL,
    ),
    ("goose", "pre-db-jsonl", "20250301_100000"): (
        (11000, 0, 0, 1300),
        (0, 0, 0, 0),
        "a Goose session from before its database (sessions/<id>.jsonl, block/goose "
        "storage.rs: its first line's accumulated_* counts the session's totals): ccusage "
        "20.0.24 reads sessions.db alone and lists no session; we measure the totals (the "
        "100 tokens of the total beyond input and output as reasoning), their cost "
        "unknown (the file names no model)",
    ),
    ("goose", "schema-v5", "20251202_2"): (
        (7500, 0, 0, 1500),
        (0, 0, 0, 0),
        "a Goose database at schema 5, before model_config_json (a public sessions.db, "
        "jwp23/dotfiles): ccusage 20.0.24's query names the column, fails, and lists no "
        "session (a total of $0); we read the row with the column as NULL, its tokens "
        "measured and their cost unknown (no model)",
    ),
    ("goose", "ledger", "20260816_1"): (
        (22000, 3000, 21000, 1800),
        (46000, 0, 0, 1800),
        "a Goose session at schema 16 measured from its usage_ledger rows, whose input holds "
        "the cache reads and writes (goose-provider-types token_usage.rs: the cache fields "
        "are subsets of input_tokens): we bill 21,000 read and 3,000 written at the cache "
        "prices, ccusage 20.0.24 reads the session's accumulated totals (the same 46,000 "
        "input and 1,800 output: Goose keeps them equal to the ledger's sums) and bills "
        "every input token at the input price",
    ),
    ("goose", "schema-v14", "20260603_3"): (
        (6000, 2000, 12000, 1000),
        (20000, 0, 0, 1000),
        "a Goose session at schema 14, before the usage ledger, whose accumulated totals "
        "hold cache counts (a Goose 1.53 row's shape, openrig's adapter test): inside the "
        "input, as in the ledger (token_usage.rs), so we bill 12,000 read and 2,000 "
        "written at the cache prices; ccusage 20.0.24 reads no cache column and bills "
        "every input token at the input price",
    ),
    ("goose", "ledger", "gone_session"): (
        (300, 0, 0, 40),
        (0, 0, 0, 0),
        "a usage_ledger row whose sessions row is gone: ccusage 20.0.24 reads the sessions "
        "table alone and lists no session; the row is a call Goose recorded, so we bill it",
    ),
    ("opencode", "no-role", "ses_nr"): (
        (1000, 200, 3000, 500),
        (1000, 200, 3000, 623),
        "a message whose tokens are a total alone (123; nashory/agent-cockpit's OpenCode "
        "test): ccusage 20.0.24 bills the total as output; which of those tokens were "
        "input and which output is not written, so we list it as malformed, as Amp's",
    ),
    ("copilot", "otel", "conv-a"): (
        (9300, 1200, 25000, 950),
        (10500, 1200, 25000, 950),
        "Copilot CLI's gen_ai.usage.input_tokens holds the cache writes as it holds the "
        "reads (OpenTelemetry's GenAI conventions; a live export's 19,335 = 8,888 read + "
        "10,437 written + 10): we take both out, ccusage 20.0.24 the reads only and bills "
        "the 1,200 written twice, as input and as cache writes",
    ),
    ("copilot", "otel-cache-write", "cccccccc-0000-4000-8000-0000000000c1"): (
        (10, 11000, 19000, 300),
        (11010, 11000, 19000, 300),
        "the first chat span's 20,005 input tokens are 9,000 read + 11,000 written + 5: "
        "ccusage 20.0.24 takes out the reads only and bills the 11,000 written twice",
    ),
    ("copilot", "otel-total-only", "cccccccc-0000-4000-8000-0000000000e1"): (
        (4000, 0, 8000, 400),
        (4000, 0, 8000, 650),
        "a chat span of gen_ai.usage.total_tokens alone (250; a usage tool's Copilot "
        "store test writes one): ccusage 20.0.24 bills the total as output; which of "
        "those tokens were input and which output is not written, so we list the span "
        "as malformed, as Amp's",
    ),
    ("qwen", "uuid-reused", "8b8b8b8b-0000-4000-8000-000000000001"): (
        (6000, 0, 6000, 20),
        (21000, 0, 10500, 40),
        "two assistant records under one uuid with different usage (a context-insight "
        "tool's test helper writes every record as uuid u): Qwen Code writes a record "
        "again under its uuid as it completes (qwen/rewritten), so the second is read as "
        "a copy and billed once; ccusage 20.0.24 bills both (and the cached prompt as "
        "input too, as in qwen/cached)",
    ),
    ("qwen", "tool-prompt", "77777777-7777-4777-8777-777777777777"): (
        (1250, 0, 0, 300),
        (1200, 0, 0, 350),
        "toolUsePromptTokenCount (50) is prompt outside promptTokenCount (the Gemini API's "
        "usage metadata: totalTokenCount 1,550 = 1,200 + 300 + 50): we bill it as input; "
        "ccusage 20.0.24 finds it only in the total, beyond the parts, and bills it as output",
    ),
    ("qwen", "openai-thoughts", "5c5c5c5c-0000-4000-8000-000000000001"): (
        (3000, 0, 0, 550),
        (3000, 0, 0, 650),
        "the first response came through Qwen Code's OpenAI-compatible converter: its "
        "candidatesTokenCount (300) is the completion, reasoning included, and "
        "thoughtsTokenCount (100) that reasoning again, as its totalTokenCount (1,300 = "
        "1,000 + 300) says (qwen-code converter.ts; a Qwen Code 0.15.0 session's 16,968 = "
        "16,928 + 40 with 21 thoughts): we bill 300; ccusage 20.0.24 adds the thoughts "
        "to every response, 400",
    ),
    ("kimi", "code", "session_9a9a9a9a-0000-4000-8000-000000000002"): (
        (8000, 0, 3000, 950),
        (2000, 0, 3000, 250),
        "Kimi Code's usage.record with usageScope 'session' (a call outside a turn: a "
        "compaction's summary, 6,000 input + 700 output here) is added to the session's "
        "usage by Kimi Code itself (kimi-code usageAgentRuntime.test.ts); ccusage 20.0.24 "
        "reads only 'turn' records",
    ),
}


#: (agent, fixture, session id) -> (our cost, ccusage's cost, why): tokens equal.
COST_DIFFERENCES: dict[tuple[str, str, str], tuple[str, str, str]] = {
    ("kimi", "code-env-model", "session_9c9c9c9c-0000-4000-8000-000000000001"): (
        "0.00740000",
        "0",
        "Kimi Code's usage.record names the configuration alias (__kimi_env_model__, "
        "KIMI_MODEL_NAME's), the llm.request before it the model the request went to "
        "(kimi-k2.6; kimi-code agent-core llm-request-recorder.ts, turn/index.ts): we "
        "price that model; ccusage 20.0.24 prices the alias, which it does not know, at 0",
    ),
    ("qwen", "dashscope", "99999999-9999-4999-8999-999999999999"): (
        "0.0774000",
        "0.043",
        "one request of 40,000 prompt tokens: LiteLLM's dashscope/qwen3-coder-plus bills "
        "32,000 to 128,000 at 1.8 and 9 $/M (its tiered_pricing), as the registry does; "
        "ccusage reads no tier below 200,000 and bills the first tier's 1 and 5 $/M",
    ),
}


def _fixtures() -> list[tuple[str, str]]:
    out = []
    for agent in AGENTS:
        sub = AGENTS[agent][2]
        for fx in sorted((LOGS / agent).iterdir()):
            if (fx / sub).is_dir():
                out.append((agent, fx.name))
    return out


def _walk(base: Path) -> list[str]:
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())


def _ours(agent: str, fixture: str) -> list[tuple[set[str], Any, Any]]:
    """(the ccusage ids it covers, its measured usage, its log) per session we read,
    each response billed once across the folder (as the CLI's folder reading); a
    session with no request last, its measured usage None."""
    _command, _variable, sub, ids = AGENTS[agent]
    base = LOGS / agent / fixture / sub
    runs, covers = [], []
    empty: list[tuple[set[str], Any]] = []
    for session in plan_folder(_walk(base)).sessions:
        handles = [open(base / f, "rb") for f in session.files]  # noqa: SIM115
        try:
            logs = read_sessions(list(zip(session.files, handles, strict=True)))
        finally:
            for h in handles:
                h.close()
        for log in logs:
            if not log.series:
                # No request (a pi header alone, tests/test_folder_costs_nothing.py):
                # not measured, as the CLI reads it; ccusage must bill it nothing.
                empty.append((ids(base, session.files, log), log))
                continue
            # As the CLI measures it (a totals-only session too), without a replay.
            runs.append(run_session(log.name, log, scenario=None, options=None, replay_it=False))
            covers.append(ids(base, session.files, log))
    read = [(c, r.measured, r.log) for c, r in zip(covers, billed_once(runs), strict=True)]
    return read + [(c, None, log) for c, log in empty]


def _tokens(s: dict[str, Any]) -> tuple[int, ...]:
    inp, cw, cr = s["inputTokens"], s["cacheCreationTokens"], s["cacheReadTokens"]
    # The output with the reasoning ccusage keeps apart (its "extra" tokens, which are
    # in its totalTokens and billed as output).
    return (inp, cw, cr, s["totalTokens"] - inp - cw - cr)


@pytest.mark.parametrize(("agent", "fixture"), _fixtures())
def test_tokens_and_cost_equal_ccusage_session_by_session(agent: str, fixture: str) -> None:
    theirs = {str(s["sessionId"]): s for s in agent_sessions(agent, fixture)}
    ours = _ours(agent, fixture)
    assert ours, f"no session read in {agent}/{fixture}"
    covered: set[str] = set()
    for ids, measured, log in ours:
        mine = [theirs[i] for i in sorted(ids) if i in theirs]
        if measured is None:  # a session with no request: ccusage lists it with none
            covered |= ids
            assert all(s["totalTokens"] == 0 for s in mine), log.name
            continue
        key = (agent, fixture, next(iter(sorted(ids))))
        # (A session ccusage does not list at all is one only DIFFERENCES may name.)
        assert mine or key in DIFFERENCES, (f"ccusage reads no session of {log.name}", theirs)
        covered |= ids
        u = measured.usage
        got = (u.input, u.cache_write_5m + u.cache_write_1h, u.cache_read, u.output)
        want = tuple(sum(t) for t in zip(*(_tokens(s) for s in mine), strict=True)) or (0,) * 4
        if key in DIFFERENCES:
            ours_expected, theirs_expected, _why = DIFFERENCES[key]
            assert (got, want) == (ours_expected, theirs_expected), log.name
            continue
        assert got == want, log.name
        cost = sum((Decimal(str(s["totalCost"])) for s in mine), Decimal(0))
        assert measured.cost is not None, log.name
        if key in COST_DIFFERENCES:
            ours_cost, theirs_cost, _why = COST_DIFFERENCES[key]
            assert measured.cost == Decimal(ours_cost), log.name
            assert abs(cost - Decimal(theirs_cost)) <= CENT_MICRO, (log.name, cost)
            continue
        assert abs(measured.cost - cost) <= CENT_MICRO, (log.name, measured.cost, cost)
    assert set(theirs) <= covered, ("sessions ccusage reads and we do not", set(theirs) - covered)


def test_opencode_logged_cost_is_the_one_ccusage_uses() -> None:
    """OpenCode writes its own cost on each message; ccusage uses it where it is above 0,
    even with --mode calculate. Ours is beside ours ("as logged")."""
    theirs = {str(s["sessionId"]): s for s in agent_sessions("opencode", "logged")}
    ((ids, measured, _log),) = _ours("opencode", "logged")
    (one,) = [theirs[i] for i in ids]
    assert measured.logged_cost is not None
    assert abs(measured.logged_cost - Decimal(str(one["totalCost"]))) <= CENT_MICRO


def test_pi_logged_cost_is_the_one_ccusage_shows_by_default() -> None:
    """pi writes its own cost (``usage.cost.total``); ccusage's default (auto) mode
    shows it, and so does our "as logged" line."""
    theirs = {str(s["sessionId"]): s for s in agent_sessions("pi", "basic", mode="auto")}
    ((ids, measured, _log),) = _ours("pi", "basic")
    (one,) = [theirs[i] for i in ids]
    assert measured.logged_cost is not None
    assert abs(measured.logged_cost - Decimal(str(one["totalCost"]))) <= CENT_MICRO
    assert measured.logged_requests == measured.requests == 3


def test_goose_s_cached_tokens_cost_less_here_than_in_ccusage_by_the_cache_prices() -> None:
    """goose/ledger's 20260816_1: the same 46,000 input and 1,800 output tokens on both
    sides (DIFFERENCES); ccusage bills the input whole at claude-sonnet-4-5's input
    price, we bill the 21,000 read at $0.30/M and the 3,000 written at $3.75/M (the
    ledger's cache counts, inside its input). Goose's own cost is beside ours."""
    (one,) = [s for s in agent_sessions("goose", "ledger") if s["sessionId"] == "20260816_1"]
    assert Decimal(str(one["totalCost"])) == Decimal("0.165")  # 46,000 x 3 + 1,800 x 15 $/M
    (measured,) = [m for ids, m, _log in _ours("goose", "ledger") if ids == {"20260816_1"}]
    assert measured.cost == Decimal("0.11055")
    assert measured.logged_cost == Decimal("0.0683")


def test_goose_s_cached_totals_cost_less_here_than_in_ccusage_by_the_cache_prices() -> None:
    """goose/schema-v14' 20260603_3, a session from before the usage ledger: its
    accumulated cache counts are read out of its input as the ledger's are (DIFFERENCES),
    so the same 20,000 input and 1,000 output cost less here. Goose's own cost is beside
    ours."""
    (one,) = agent_sessions("goose", "schema-v14")
    # 20,000 x 3 + 1,000 x 15 $/M, as ccusage sums it in floats
    assert abs(Decimal(str(one["totalCost"])) - Decimal("0.075")) <= CENT_MICRO
    ((_ids, measured, log),) = _ours("goose", "schema-v14")
    assert log.totals_only
    assert measured.cost == Decimal(
        "0.0441"
    )  # 6,000 x 3 + 2,000 x 3.75 + 12,000 x 0.3 + 1,000 x 15
    assert measured.logged_cost == Decimal("0.05")


@pytest.mark.parametrize(("agent", "fixture"), [("droid", "totals"), ("goose", "totals")])
def test_a_totals_only_agent_is_measured_with_no_request_counted(agent: str, fixture: str) -> None:
    """Goose and Droid keep per-session totals: measured (equal to ccusage, above), the
    request count unknown, and the session says it cannot be replayed turn by turn."""
    for _ids, measured, log in _ours(agent, fixture):
        assert log.totals_only
        assert measured.requests is None  # unknown, never 0 (issue 42)
        assert all(not s.requests for s in log.series)
        assert measured.usage.input > 0


def test_every_fixture_line_is_accounted_for() -> None:
    for agent, fixture in _fixtures():
        for _ids, _measured, log in _ours(agent, fixture):
            for f in log.ledger:
                assert f.accounted == f.lines, (agent, fixture, f)


#: Copilot CLI events fixture -> (our tokens, ccusage's tokens, why), tokens as in
#: DIFFERENCES; the cost then compared with the figures given.
EVENTS_DIFFERENCES: dict[str, tuple[tuple[int, ...], tuple[int, ...], str, str, str]] = {
    "events-resumed-restart": (
        (2500, 0, 3000, 550),
        (2000, 0, 2000, 400),
        "0.001800000",
        "0.00135",
        "a session resumed once whose second session.shutdown has an input (2,500) below "
        "the first's (3,000): no cumulative total (each shutdown holds the session's "
        "totals so far, a 1.0.91 capture's usage rows: copilot/events-resumed, equal to "
        "ccusage), so its counters began again at 0 and we bill both whole; ccusage "
        "20.0.24 bills the first, then the second minus the first, its uncached input "
        "floored at 0 (500 - 2,000: none), so it loses 500 uncached input, 1,000 reads "
        "and 150 output",
    ),
    "events-compaction": (
        (25000, 5000, 60000, 4200),
        (15000, 5000, 40000, 3000),
        "0.17475",
        "0.12075",
        "a compaction's call after the last session.shutdown (compactionTokensUsed "
        "30,000 input holding 20,000 cached, 1,200 output; the process never shut down "
        "cleanly): in no shutdown's totals, so we bill it at the resumed session's model; "
        "ccusage 20.0.24 reads the shutdowns alone. The compaction before the shutdown is "
        "in its totals on both sides",
    ),
}


@pytest.mark.parametrize(
    "fixture",
    [
        "events",
        "events-resumed",
        "events-resumed-restart",
        "events-nano-aiu",
        "events-1m",
        "events-compaction",
    ],
)
def test_copilot_events_totals_equal_ccusage_reading_session_state(fixture: str) -> None:
    """ccusage 20.0.24 also reads Copilot CLI's ``session-state/<id>/events.jsonl``
    (``COPILOT_HOME``; its ``session.shutdown`` model metrics), the totals we measure:
    equal, session by session, but where EVENTS_DIFFERENCES says why not."""
    base = LOGS / "copilot" / fixture
    theirs = _copilot_home_sessions(base)
    seen = set()
    for session in plan_folder(_walk(base)).sessions:
        handles = [open(base / f, "rb") for f in session.files]  # noqa: SIM115
        try:
            (log,) = read_sessions(list(zip(session.files, handles, strict=True)))
        finally:
            for h in handles:
                h.close()
        run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
        sid = Path(session.files[0]).parent.name
        seen.add(sid)
        u = run.measured.usage
        got = (u.input, u.cache_write_5m + u.cache_write_1h, u.cache_read, u.output)
        cost = Decimal(str(theirs[sid]["totalCost"]))
        assert run.measured.cost is not None
        if fixture in EVENTS_DIFFERENCES:
            ours, their_tokens, our_cost, their_cost, _why = EVENTS_DIFFERENCES[fixture]
            assert (got, _tokens(theirs[sid])) == (ours, their_tokens)
            assert run.measured.cost == Decimal(our_cost)
            assert abs(cost - Decimal(their_cost)) <= CENT_MICRO
            continue
        assert got == _tokens(theirs[sid])
        assert abs(run.measured.cost - cost) <= CENT_MICRO
    assert seen == set(theirs)


def _copilot_home_sessions(base: Path) -> dict[str, dict[str, Any]]:
    """ccusage 20.0.24's sessions of a Copilot CLI data folder (``COPILOT_HOME``: its
    ``otel/*.jsonl`` export and its ``session-state/<id>/events.jsonl`` files alike)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": tmp,
            "TZ": "UTC",
            "LOG_LEVEL": "0",
            "COPILOT_HOME": str(base.resolve()),
        }
        argv = [str(CCUSAGE), "copilot", "session", "--json", "--offline", "--mode", "calculate"]
        proc = subprocess.run(argv, env=env, cwd=tmp, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout, parse_float=Decimal)["sessions"]
    return {str(s["sessionId"]): s for s in out}


def _billed_by_session_id(base: Path) -> dict[str, list[tuple[tuple[int, ...], Decimal | None]]]:
    """Our sessions of a Copilot CLI data folder, read as the CLI plans it, by Copilot
    session id: an events.jsonl's folder, a store session's id, an export's conversation
    with a request billed; each id's usage once per source that billed it."""
    out: dict[str, list[tuple[tuple[int, ...], Decimal | None]]] = {}
    for session in plan_folder(_walk(base)).sessions:
        handles = [open(base / f, "rb") for f in session.files]  # noqa: SIM115
        try:
            logs = read_sessions(list(zip(session.files, handles, strict=True)))
        finally:
            for h in handles:
                h.close()
        for log in logs:
            if not log.series:  # a file whose usage another source bills: no request
                continue
            run = run_session(log.name, log, scenario=None, options=None, replay_it=False)
            if run.measured is None:
                continue
            if "#" in log.name:
                groups = {log.name.rsplit("#", 1)[1]: list(log.all_requests())}
            elif log.totals_only:
                groups = {Path(session.files[0]).parent.name: list(log.all_requests())}
            else:
                groups = {
                    s.name.removeprefix("conversation:"): [*s.requests, *s.abandoned]
                    for s in log.series
                }
            for sid, requests in groups.items():
                m = measured_usage(requests) if not log.totals_only else run.measured
                u = m.usage
                tokens = (u.input, u.cache_write_5m + u.cache_write_1h, u.cache_read, u.output)
                out.setdefault(sid, []).append((tokens, m.cost))
    return out


@pytest.mark.parametrize(
    "fixture",
    ["otel-events", "otel-events-open", "otel-events-store", "store-events", "store-events-otel"],
)
def test_a_copilot_folder_bills_each_session_id_once_as_ccusage(fixture: str) -> None:
    """A Copilot CLI data folder holding an OpenTelemetry export and events.jsonl files
    (and a session store, in otel-events-store) that share one session id, each with one
    more of its own: each id is billed by one source (docs/replay.md, "Copilot CLI: one
    source per session"), with ccusage 20.0.24's tokens and cost, session by session. The
    shared session was billed twice (the export's spans and the events' totals), and
    with a store the export was read instead of the store and the totals, so a session
    only the events held was lost. In otel-events-open the shared session's events.jsonl
    holds no usage: the export bills it, as ccusage does."""
    base = LOGS / "copilot" / fixture
    theirs = _copilot_home_sessions(base)
    ours = _billed_by_session_id(base)
    assert set(ours) == set(theirs)
    for sid, billed in ours.items():
        assert len(billed) == 1, (sid, billed)  # one source per session id
        ((tokens, cost),) = billed
        assert tokens == _tokens(theirs[sid]), sid
        assert cost is not None
        assert abs(cost - Decimal(str(theirs[sid]["totalCost"]))) <= CENT_MICRO, sid


@pytest.mark.parametrize("fixture", ["store-compaction", "store-compaction-order"])
def test_a_store_session_marked_with_its_events_compaction_bills_as_ccusage(fixture: str) -> None:
    """copilot/store-compaction: the store bills session A, and the compaction its
    events.jsonl records is marked on the store's session (copilot40e): nothing is
    billed twice, A's tokens and cost are ccusage 20.0.24's (which reads A's shutdown;
    B, in the store alone, it does not read). copilot/store-compaction-order: the marks
    have no time (copilot40f); B's events.jsonl, no time on any line, ccusage leaves
    out."""
    base = LOGS / "copilot" / fixture
    theirs = _copilot_home_sessions(base)
    ours = _billed_by_session_id(base)
    sid = "dddddddd-0000-4000-8000-0000000000a1"
    assert set(theirs) == {sid}
    ((tokens, cost),) = ours[sid]
    assert tokens == _tokens(theirs[sid])
    assert cost is not None
    assert abs(cost - Decimal(str(theirs[sid]["totalCost"]))) <= CENT_MICRO
