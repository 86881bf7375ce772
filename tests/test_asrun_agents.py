"""The as-run backtest of every agent's log runs under THAT agent's runtime profile and
the cache rules of its model's provider, never Claude Code's by default (issues 37 and
40; docs/replay.md, "As run: the backtest", "Other agents").

Golden values come from the profiles' sources (shared RUNTIMES.md): pi fires when
T > W − reserveTokens (16,384; badlogic/pi-mono compaction.ts@83378aad7e :214), Gemini
CLI at 0.5 × tokenLimit = 0.5 × 1,048,576 (google-gemini/gemini-cli@5411f113ca
tokenLimits.ts:20-38, chatCompressionService.ts:271-275), Kimi CLI at min(0.85 × W,
W − 50,000) (MoonshotAI/kimi-cli@4a550effdf compaction.py:60-76), Qwen Code at
min(0.85 × W, W − 33,000), OpenCode at W − min(O, 32,000) without limit.input."""

from __future__ import annotations

import dataclasses
import html
import json
from pathlib import Path

import pytest

from budgetcore.registry.models import resolve
from budgetcore.replay.asrun import NO_PROFILE, RUNTIME_OF_FORMAT, as_run, cline_v3_trigger
from budgetcore.replay.logs.agents import AGENTS
from budgetcore.replay.logs.model import LogRequest, ParsedLog
from budgetcore.replay.prompt_cache import modelled_split, provider_of
from budgetcore.ui.replay.logs import logs_html
from budgetcore.ui.replay.state import ReplayPanel, with_logs

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"


def _files(case: Path) -> list[tuple[str, bytes]]:
    return [
        (p.relative_to(case).as_posix(), p.read_bytes())
        for p in sorted(case.rglob("*"))
        if p.is_file()
    ]


def _sessions(case: Path) -> tuple[ParsedLog, ...]:
    """The sessions of a fixture folder as the page reads them (its picked files)."""
    panel = with_logs(ReplayPanel(), tuple((f"x/{n}", b) for n, b in _files(case)))
    return tuple(x.log for x in panel.logs if x.log is not None and x.log.series)


def _window(model: str | None) -> int | None:
    entry = None if model is None else resolve(model).model
    return None if entry is None else entry.contract.input_tokens


def test_every_agent_we_read_has_a_profile_or_says_it_has_none() -> None:
    keys = {a.key for a in AGENTS}
    assert keys == set(RUNTIME_OF_FORMAT) | set(NO_PROFILE)
    assert not set(RUNTIME_OF_FORMAT) & set(NO_PROFILE)
    # Every agent but Claude Code's own log maps to a runtime other than Claude Code.
    assert [k for k, v in RUNTIME_OF_FORMAT.items() if v == "claude-code"] == ["claude-code"]


@pytest.mark.parametrize(
    ("case", "runtime", "title"),
    [
        ("pi/basic", "pi", "pi"),
        ("pi/branch", "pi", "pi"),
        ("gemini/jsonl", "gemini-cli", "Gemini CLI"),
        ("gemini/subagent", "gemini-cli", "Gemini CLI"),
        ("qwen/plain", "qwen-code", "Qwen Code"),
        ("kimi/subagent", "kimi-cli", "Kimi CLI"),
        ("opencode/db", "opencode", "OpenCode"),
        ("opencode/legacy", "opencode", "OpenCode"),
        ("cline/v4", "cline", "Cline"),
        ("amp/ledger", "amp", "Amp"),
        ("copilot/otel", "copilot-cli", "Copilot CLI"),
    ],
)
def test_each_agent_s_backtest_names_its_own_runtime(case: str, runtime: str, title: str) -> None:
    logs = _sessions(LOGS / case)
    assert logs
    for log in logs:
        a = as_run(log)
        assert (a.runtime, a.runtime_title) == (runtime, title)
        assert "Claude Code" not in a.window_source + a.trigger_rule


def test_pi_s_trigger_is_its_own_rule_on_the_model_s_window() -> None:
    (log,) = _sessions(LOGS / "pi" / "basic")
    a = as_run(log)
    w = _window(log.main_model())
    assert w is not None
    assert a.window == w
    assert a.trigger == w - 16_384 + 1  # T > W − reserveTokens: first at W − 16,384 + 1
    assert "the registry's input tokens of claude-sonnet-4-5" in a.window_source
    # pi's compaction at 6,450 tokens (tokensBefore) is logged, and below the trigger.
    assert a.logged_compactions == (2,)
    assert a.predicted_compactions == ()
    assert a.cache.provider == "anthropic"
    assert a.cache.known


def test_gemini_cli_s_window_is_its_token_limit_and_google_s_cache_is_not_predicted() -> None:
    (log,) = _sessions(LOGS / "gemini" / "jsonl")
    a = as_run(log)
    assert a.window == 1_048_576
    assert a.trigger == 524_288  # ceil(0.5 × 1,048,576)
    assert "tokenLimit" in a.window_source
    assert a.cache.provider == "google"
    assert not a.cache.known
    assert a.baseline_trusted is False
    assert a.caveat.startswith("no cache model for this provider (google")
    d = a.as_dict()
    assert d["baseline_caveat"] == a.caveat
    assert d["cache_rules"]["provider"] == "google"
    # Not predicted: every modelled request is uncached input, whatever was measured.
    modelled = a.modelled.usage
    assert (modelled.cache_read, modelled.cache_write_5m, modelled.cache_write_1h) == (0, 0, 0)
    assert modelled.input == sum(r.context for s in log.series for r in s.requests) + sum(
        r.context for s in log.series for r in s.abandoned
    )


def test_an_agent_without_a_profile_predicts_no_trigger_and_borrows_none() -> None:
    (log,) = _sessions(LOGS / "amp" / "ledger")
    a = as_run(log)
    assert a.trigger is None
    assert a.trigger_rule.startswith("no runtime profile for Amp: no trigger predicted")
    assert a.predicted_compactions == ()
    assert a.window == _window(log.main_model())


def test_kimi_s_window_is_the_one_its_wire_states() -> None:
    """The main wire's StatusUpdate max_context_tokens (262,144 in the fixture) is W;
    the trigger is min(ceil(0.85 × W), W − 50,000) = 212,144."""
    (log,) = _sessions(LOGS / "kimi" / "subagent")
    assert log.window == 262_144
    a = as_run(log)
    assert a.window == 262_144
    assert a.window_source.startswith("the log's max_context_tokens (262,144)")
    assert a.trigger == min(-(-85 * 262_144 // 100), 262_144 - 50_000) == 212_144
    assert a.cache.provider == "moonshot"
    assert not a.cache.known


def test_kimi_without_a_stated_window_takes_the_registry_s() -> None:
    for log in _sessions(LOGS / "kimi" / "plain"):
        assert log.window is None
        a = as_run(log)
        w = _window(log.main_model())
        assert a.window == w
        if w is not None:
            assert a.trigger == min(-(-85 * w // 100), w - 50_000)


def test_opencode_reserves_the_model_s_output_up_to_32000() -> None:
    for log in _sessions(LOGS / "opencode" / "db"):
        a = as_run(log)
        entry = resolve(log.main_model() or "").model
        assert entry is not None
        w, o = entry.contract.input_tokens, entry.contract.output_tokens
        assert a.trigger == w - min(o or 32_000, 32_000)


@pytest.mark.parametrize(
    ("model", "provider"),
    [
        ("claude-sonnet-4-5", "anthropic"),
        ("openrouter/anthropic/claude-opus-4.5", "anthropic"),
        ("gpt-5.1-codex", "openai"),
        ("o3-mini", "openai"),
        ("o4", "openai"),
        ("gemini-2.5-pro", "google"),
        ("vertex_ai/gemini-3-pro-preview", "google"),
        ("moonshot/kimi-k2.5", "moonshot"),
        ("dashscope/qwen3-coder-plus", "dashscope"),
        ("zai/glm-4.6", None),
        ("ollama/llama3", None),
        ("omni-model", None),
        (None, None),
    ],
)
def test_the_provider_is_the_model_s_maker(model: str | None, provider: str | None) -> None:
    assert provider_of(model) == provider


def test_a_model_without_a_provider_s_rules_is_not_calibrated_either() -> None:
    """No rules: no calibration on the first request's read (issue 37: the measured
    split of no request is the model's)."""
    (log,) = _sessions(LOGS / "gemini" / "jsonl")
    rules = as_run(log).cache
    reqs = [
        LogRequest(line=1, context=5_000, output=10, cache_read=4_000, cache_write=0, model="g"),
        LogRequest(line=2, context=6_000, output=10, cache_read=5_000, cache_write=0, model="g"),
    ]
    out, prefix = modelled_split(reqs, rules)
    assert prefix == 0
    assert [(r.input, r.cache_read, r.cache_write) for r in out] == [(5_000, 0, 0), (6_000, 0, 0)]


def test_calibration_is_the_first_request_only_on_every_agent() -> None:
    """Anthropic's rules on a pi log: the first request reads what it read (the one
    calibration); a later request's read is the rules', not its own measured one."""
    (log,) = _sessions(LOGS / "pi" / "basic")
    a = as_run(log)
    (main,) = [s for s in a.series if s.name == "main"]
    first = log.main.requests[0]
    assert main.stable_prefix == min(first.cache_read, first.context)
    # Request 3 follows the compaction: it reads min(P, its context) = 0, though the
    # log's own split of it would say otherwise if it had read anything.
    assert main.split[2].cache_read == min(main.stable_prefix, log.main.requests[2].context)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_names_the_agent_s_runtime(lang: str) -> None:
    for case, title in (("pi/basic", "pi"), ("gemini/jsonl", "Gemini CLI"), ("amp/ledger", "Amp")):
        folder = LOGS / case
        panel = with_logs(ReplayPanel(), tuple((f"x/{n}", b) for n, b in _files(folder)))
        page = str(logs_html(dataclasses.replace(panel, log_index=0), lang, wide=True))
        assert "Claude Code" not in page
        runtime = RUNTIME_OF_FORMAT.get(case.split("/")[0].replace("gemini", "gemini-cli"))
        assert f'data-as-run="{runtime or "amp"}"' in page
        assert ("运行时 " if lang == "zh" else "Runtime ") + title in page


def _pi_session(tmp_path: Path, before: int) -> ParsedLog:
    """A pi v3 session on claude-sonnet-4-5 (the registry's 200,000-token window): two
    requests, a compaction whose tokensBefore is ``before``, one request after it."""
    lines = [
        {"type": "session", "version": 3, "id": "s", "timestamp": "2025-11-24T10:00:00.000Z"},
    ]
    parent = None
    for i, (kind, body) in enumerate(
        [
            ("message", {"role": "user", "content": "placeholder"}),
            ("message", {"input": 1, "cacheRead": 0, "cacheWrite": 100_000, "output": 500}),
            ("message", {"role": "user", "content": "placeholder"}),
            ("message", {"input": 1, "cacheRead": 100_000, "cacheWrite": 83_000, "output": 500}),
            ("compaction", {"tokensBefore": before}),
            ("message", {"role": "user", "content": "placeholder"}),
            ("message", {"input": 1, "cacheRead": 0, "cacheWrite": 9_000, "output": 300}),
        ]
    ):
        entry: dict[str, object] = {
            "type": kind,
            "id": f"e{i}",
            "parentId": parent,
            "timestamp": f"2025-11-24T10:00:{i + 1:02d}.000Z",
        }
        if kind == "compaction":
            entry.update(summary="placeholder", firstKeptEntryId=f"e{i - 1}", **body)
        elif "role" in body:
            entry["message"] = body
        else:
            output = body.pop("output")
            entry["message"] = {
                "role": "assistant",
                "content": [],
                "provider": "anthropic",
                "model": "claude-sonnet-4-5",
                "usage": {**body, "output": output},
            }
        lines.append(entry)
        parent = f"e{i}"
    case = tmp_path / "sessions" / "--p--"
    case.mkdir(parents=True)
    (case / "2025-11-24T10-00-00-000Z_s.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines)
    )
    (log,) = _sessions(tmp_path)
    return log


@pytest.mark.parametrize(("before", "predicted"), [(183_617, (2,)), (183_616, ())])
def test_pi_s_strict_trigger_predicts_the_logged_compaction_to_the_token(
    tmp_path: Path, before: int, predicted: tuple[int, ...]
) -> None:
    """pi fires when T > W − 16,384 (compaction.ts :214): at tokensBefore 183,617 on a
    200,000 window, not at 183,616."""
    log = _pi_session(tmp_path, before)
    a = as_run(log)
    assert a.window == 200_000
    assert a.logged_compactions == (2,)
    assert a.predicted_compactions == predicted


@pytest.mark.parametrize(
    ("window", "trigger"),
    # min(floor(0.75 W), maxAllowed), RUNTIMES.md §8 (cline v3.59.0 ContextManager.ts,
    # context-window-utils.ts): 64k: W − 27,000; 128k: W − 30,000; 200k: W − 40,000.
    [(64_000, 37_000), (128_000, 96_000), (200_000, 150_000), (1_000_000, 750_000)],
)
def test_cline_3_s_own_rule(window: int, trigger: int) -> None:
    assert cline_v3_trigger(window) == trigger


def test_a_cline_3_task_is_backtested_on_cline_3_s_rule_and_a_4_session_on_4_s() -> None:
    (v3,) = _sessions(LOGS / "cline" / "v3-model-info")
    (v4,) = _sessions(LOGS / "cline" / "v4")
    a3, a4 = as_run(v3), as_run(v4)
    assert a3.window == a4.window == 200_000
    assert a3.trigger == 150_000
    assert a3.trigger_rule.startswith("Cline 3.x")
    assert a4.trigger == 162_000  # ceil(0.81 × 200,000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_cline_3_task_that_names_no_model_says_what_is_missing_not_its_provider(
    lang: str,
) -> None:
    """Walk of December 2026 (issue 42): a Cline 3.x task whose requests name no model
    read "no cache rules of this provider (unknown)". Cline's api_req_started carries no
    model or provider (cline/cline src/shared/ExtensionMessage.ts ClineApiReqInfo
    @0014234a2d; the fixture's apiProtocol is its forks' wire protocol, not a provider):
    the sentence says the log names no model, and where Cline 3.x would have named it."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415
    from tests.helpers import run_cli  # noqa: PLC0415

    (log,) = _sessions(LOGS / "cline" / "v3")
    assert log.main_model() is None
    a = as_run(log)
    assert not a.cache.known
    assert a.cache.missing == "no-model-cline-v3"
    assert a.caveat.startswith("no cache model: the log names no model")
    assert "this provider (unknown" not in a.caveat
    picked = tuple((f"x/{n}", b) for n, b in _files(LOGS / "cline" / "v3"))
    panel = with_logs(ReplayPanel(), picked)
    page = html.unescape(str(logs_html(dataclasses.replace(panel, log_index=0), lang, wide=True)))
    zh = lang == "zh"
    for key in ("asrun.untrusted.no-model", "asrun.cache-none.no-model"):
        assert CATALOGUE[key][zh] in page, key
    # Said after each of the two sentences.
    assert page.count(CATALOGUE["asrun.no-model.cline-v3"][zh]) == 2
    unknown = CATALOGUE["asrun.untrusted.no-cache"][zh].split("{provider}")[0]
    assert unknown not in page
    cli = run_cli(["replay", "--log", str(LOGS / "cline" / "v3"), "--format", "table"])
    assert cli.code == 0, cli.err
    assert "this provider (unknown" not in cli.out
    assert "cache: not predicted: no cache model: the log names no model" in cli.out
    assert "this task has neither" in cli.out
    # A model whose maker no rule knows: named, not "unknown".
    odd = dataclasses.replace(
        log,
        series=tuple(
            dataclasses.replace(
                s, requests=tuple(r._replace(model="mystery-1") for r in s.requests)
            )
            for s in log.series
        ),
    )
    b = as_run(odd)
    assert b.cache.missing == "no-maker"
    assert b.caveat.startswith("no cache model: the maker of mystery-1 is not known")


def test_a_session_of_two_makers_is_no_baseline_and_says_whose_rules_it_applied() -> None:
    (log,) = _sessions(LOGS / "copilot" / "otel")
    makers = {provider_of(m) for m in log.models()}
    assert makers == {"anthropic", "openai"}
    a = as_run(log)
    main = provider_of(log.main_model())
    (other,) = makers - {main}
    assert a.cache.provider == main
    assert a.caveat.startswith(
        f"the session's models have more than one provider ({main} and {other})"
    )
    assert a.baseline_trusted is False


def test_the_cli_table_names_the_agent_s_runtime_and_its_cache() -> None:
    from tests.helpers import run_cli  # noqa: PLC0415

    pi = run_cli(["replay", "--log", str(LOGS / "pi" / "basic"), "--format", "table"])
    assert pi.code == 0, pi.err
    assert "  runtime pi; window 200,000 (the registry's input tokens of" in pi.out
    assert "its trigger 183,617 (T > W − compaction.reserveTokens)" in pi.out
    assert "  cache: anthropic rules (" in pi.out
    gemini = run_cli(["replay", "--log", str(LOGS / "gemini" / "jsonl"), "--format", "table"])
    assert gemini.code == 0, gemini.err
    assert "  runtime Gemini CLI; window 1,048,576 (Gemini CLI's tokenLimit(" in gemini.out
    assert "  cache: not predicted: no cache model for this provider (google" in gemini.out
    assert "no baseline for a what-if, whatever its error: no cache model" in gemini.out
    amp = run_cli(["replay", "--log", str(LOGS / "amp" / "ledger"), "--format", "table"])
    assert amp.code == 0, amp.err
    assert "its trigger unknown (no runtime profile for Amp: no trigger predicted" in amp.out
    assert "Claude Code" not in pi.out + gemini.out + amp.out
