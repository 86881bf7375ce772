"""The as-run backtest on small hand-computed sessions (docs/replay.md, "As run: the
backtest"; docs/spec.md §17). Each assertion names the rule it checks; prices are the
registry's (claude-sonnet-4-5-20250929: input $3, 5-minute write $3.75, read $0.30,
output $15 per million tokens; claude-haiku-4-5: write $1.25, output $5; gpt-5-codex:
input $1.25, cached input $0.125, output $10)."""

from __future__ import annotations

import dataclasses
import html
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from budgetcore.replay.asrun import (
    as_run,
    error_stats,
    in_order,
    predicted_compactions,
    ratio_text,
    version_of,
)
from budgetcore.replay.logs import read_session
from budgetcore.replay.logs.codex import reasoning_estimate
from budgetcore.replay.logs.compaction import LogCompaction
from budgetcore.replay.logs.model import LogRequest, LogSeries, ParsedLog
from budgetcore.replay.prompt_cache import (
    CACHE_OFF_FROM,
    _thinking_traits,
    cache_model,
    cache_off,
    modelled_split,
    reasoning_restarts,
    thinking_restarts,
)
from budgetcore.runtimes import profile
from budgetcore.runtimes.caches import ANTHROPIC_CACHE, OPENAI_CACHE
from tests.asrun_oracle import ANTHROPIC, oracle_series
from tests.helpers import LOG_FIXTURES, run_cli

SONNET = "claude-sonnet-4-5-20250929"
HAIKU = "claude-haiku-4-5"
CODEX = "gpt-5-codex"
MIN = 60_000


def req(
    line: int,
    context: int,
    read: int,
    write: int,
    output: int,
    model: str,
    at: int | None = None,
    *,
    write_1h: int = 0,
    file: int = 0,
) -> LogRequest:
    return LogRequest(
        line=line,
        context=context,
        output=output,
        cache_read=read,
        cache_write=write,
        model=model,
        input=context - read - write,
        cache_write_1h=write_1h,
        started=at,
        finished=None if at is None else at + 1_000,
        file=file,
    )


def log_of(fmt: str, *series: LogSeries, window: int | None = None) -> ParsedLog:
    return ParsedLog(format=fmt, series=series, skipped=(), duplicates=0, window=window)


def comp(after: int, pre: int | None, trigger: str | None = "auto") -> LogCompaction:
    return LogCompaction(
        line=0, after_turn=after, trigger=trigger, pre_tokens=pre, post_tokens=None
    )


# A Claude Code main series: a 6-minute gap, a compaction, a model switch.
CLAUDE_MAIN = LogSeries(
    name="main",
    requests=(
        req(2, 20_000, 15_000, 5_000, 500, SONNET, 0),
        # 6 minutes after the first one's last line: past the 5-minute lifetime.
        req(4, 30_000, 15_000, 15_000, 500, SONNET, 1_000 + 6 * MIN),
        # After the compaction: measured cold, as Claude Code's summary restarts it.
        req(7, 16_000, 0, 16_000, 500, SONNET, 2_000 + 7 * MIN),
        req(9, 18_000, 0, 18_000, 500, HAIKU, 3_000 + 7 * MIN),
    ),
    compactions=(comp(2, 30_500),),
)


class TestClaudeCodeSeries:
    def test_each_request_follows_the_numbered_rules(self) -> None:
        got, prefix = modelled_split(
            CLAUDE_MAIN.requests, cache_model(ANTHROPIC_CACHE), after_compaction=frozenset({2})
        )
        assert prefix == 15_000  # step 1: the first request reads what it read
        reads = [r.cache_read for r in got]
        writes = [r.cache_write for r in got]
        # step 1; step 2 (6 minutes > 5: cold, spec §17); step 3 (min(P, 16,000));
        # Haiku's first request: no entry of that model is alive (see the oracle's note).
        assert reads == [15_000, 0, 15_000, 0]
        # Anthropic writes the rest of the context (step 5).
        assert writes == [5_000, 30_000, 1_000, 18_000]
        assert [r.input for r in got] == [0, 0, 0, 0]
        assert [(r.context, r.output, r.model) for r in got] == [
            (r.context, r.output, r.model) for r in CLAUDE_MAIN.requests
        ]

    def test_costs_ratio_and_cache_error(self) -> None:
        result = as_run(log_of("claude-code", CLAUDE_MAIN))
        # Modelled: 0.03075 + 0.12 (cold after the gap: 30,000 x 3.75 + 500 x 15, per
        # million) + 0.01575 (15,000 x 0.3 + 1,000 x 3.75 + 500 x 15) + 0.025 (Haiku:
        # 18,000 x 1.25 + 500 x 5).
        assert result.modelled_cost == Decimal("0.1915")
        # Measured: the second request read 15,000 after the gap (0.06825), the third
        # wrote all of its 16,000 (0.0675).
        assert result.measured_cost == Decimal("0.1915")
        # The two misses, 15,000 tokens each way at the same model's prices, cancel in
        # cost: the ratio says nothing of them, the per-request cache error does.
        assert result.ratio == 0
        assert result.line() == "As run: measured $0.1915, modelled $0.1915 (±0.0 %)"
        assert result.trusted is True
        (main,) = result.series
        assert main.cache_errors == (0, 15_000, 15_000, 0)
        # The median of an even count is the lower middle.
        assert result.as_dict()["cache_error_median"] == 0
        assert result.as_dict()["cache_error_max"] == 15_000
        assert result.logged_compactions == (2,)
        assert result.predicted_compactions == ()  # 30,500 < 167,000

    def test_a_compaction_keeps_the_stable_prefix_whatever_the_last_request_held(self) -> None:
        # docs/replay.md step 3: the first request after a logged compaction reads
        # min(P, its context): a short request before it (here 2,000 tokens, below P)
        # does not shrink what other sessions keep warm. Before the fix the model read
        # min(P, 2,000, ...) = 2,000.
        reqs = (
            req(1, 8_000, 5_000, 3_000, 0, SONNET),
            req(2, 2_000, 0, 0, 0, SONNET),
            req(3, 20_000, 0, 0, 0, SONNET),
        )
        got, _ = modelled_split(reqs, cache_model(ANTHROPIC_CACHE), after_compaction=frozenset({2}))
        assert got[2].cache_read == 5_000
        assert got[2].cache_write == 15_000

    def test_one_hour_series_lives_an_hour_and_writes_at_the_1h_price(self) -> None:
        # step 2: 1 hour for a series whose cache writes are mostly 1-hour ones.
        reqs = (
            req(1, 20_000, 10_000, 10_000, 0, SONNET, 0, write_1h=10_000),
            req(2, 25_000, 0, 25_000, 0, SONNET, 1_000 + 59 * MIN, write_1h=25_000),
            req(3, 26_000, 0, 26_000, 0, SONNET, 2_000 + 120 * MIN, write_1h=26_000),
        )
        result = as_run(log_of("claude-code", LogSeries("main", reqs, ())))
        (s,) = result.series
        assert s.one_hour
        u = s.modelled.usage
        # 59 minutes: alive, reads 20,000; 61 minutes: cold, reads nothing (spec §17).
        assert u.cache_read == 10_000 + 20_000 + 0
        assert (u.cache_write_5m, u.cache_write_1h) == (0, 10_000 + 5_000 + 26_000)

    def test_an_automatic_compaction_crossing_the_trigger_is_predicted_where_logged(self) -> None:
        # docs/replay.md "Predicted compactions": preTokens where the log compacted.
        main = LogSeries(
            "main",
            (
                req(1, 100_000, 0, 0, 1_000, SONNET),
                req(2, 160_000, 0, 0, 1_000, SONNET),
                req(3, 30_000, 0, 0, 1_000, SONNET),
                req(4, 166_000, 0, 0, 999, SONNET),
                req(5, 166_000, 0, 0, 1_000, SONNET),
                req(6, 170_000, 0, 0, 0, SONNET),
            ),
            (comp(2, 167_500), comp(3, 40_000, "manual")),
        )
        result = as_run(log_of("claude-code", main))
        assert result.trigger == 167_000
        assert result.logged_compactions == (2,)
        assert result.manual_compactions == (3,)
        # 2: preTokens 167,500 >= 167,000; re-armed by the logged compactions; 4:
        # 166,999 < K; 5: 167,000 fires (T >= K); 6: no compaction since, not again.
        assert result.predicted_compactions == (2, 5)


class TestWindows:
    def test_claude_code_window_is_200k_until_a_request_proves_1m(self) -> None:
        at = LogSeries("main", (req(1, 200_000, 0, 0, 0, SONNET),), ())
        above = LogSeries("main", (req(1, 200_001, 0, 0, 0, SONNET),), ())
        small, large = as_run(log_of("claude-code", at)), as_run(log_of("claude-code", above))
        assert (small.window, small.trigger) == (200_000, 167_000)
        assert large.window == 1_000_000
        # K = W - min(O, 20,000) - 13,000 (RUNTIMES.md, Claude Code), O = 64,000.
        assert large.trigger == 1_000_000 - 20_000 - 13_000
        assert "200,001" in large.window_source

    @pytest.mark.parametrize(
        ("logged", "window", "trigger"),
        [
            # 258,400 is 95 % of the registry's 272,000: W is the model's own window
            # and the trigger 90 % of it (docs/replay.md, "Runtime, window, trigger").
            (258_400, 272_000, 244_800),
            # Anything else is the log's own figure.
            (250_000, 250_000, 225_000),
        ],
    )
    def test_codex_window_from_the_log(self, logged: int, window: int, trigger: int) -> None:
        main = LogSeries("main", (req(1, 50_000, 0, 0, 0, CODEX),), ())
        result = as_run(log_of("codex", main, window=logged))
        assert (result.window, result.trigger) == (window, trigger)

    @pytest.mark.parametrize(
        ("version", "trigger"),
        [
            # Before 2.1.21 Claude Code reserved min(O, 32,000) (changelog 2.1.21; the
            # 45,000-token buffer of 2.0.x's /context): 200,000 - 32,000 - 13,000.
            ("2.0.0", 155_000),
            ("2.0.76", 155_000),
            ("2.1.20", 155_000),
            # From 2.1.21 on, min(O, 20,000): the profile's 167,000.
            ("2.1.21", 167_000),
            ("2.1.39", 167_000),
            # 1.0.x, no version, or text that is not one: the profile's rule.
            ("1.0.98", 167_000),
            ("", 167_000),
            ("beta", 167_000),
        ],
    )
    def test_claude_code_trigger_by_version(self, version: str, trigger: int) -> None:
        main = LogSeries("main", (req(1, 50_000, 0, 0, 100, SONNET),), ())
        log = dataclasses.replace(log_of("claude-code", main), version=version)
        result = as_run(log)
        assert result.trigger == trigger
        assert ("32,000" in result.trigger_rule) == (trigger == 155_000)

    @pytest.mark.parametrize(
        ("logged", "window"),
        [
            # LiteLLM gives gpt-5.1-codex the API's 400,000; Codex's catalogue 272,000,
            # whose 95 % (floor) the log writes: W = 258,400 x 100 / 95.
            (258_400, 272_000),
            # Codex 0.47 writes the window in full (272,000 is not a multiple of 95).
            (272_000, 272_000),
        ],
    )
    def test_codex_window_is_the_whole_of_a_95_percent_window(
        self, logged: int, window: int
    ) -> None:
        main = LogSeries("main", (req(1, 50_000, 0, 0, 0, "gpt-5.1-codex"),), ())
        result = as_run(log_of("codex", main, window=logged))
        assert (result.window, result.trigger) == (window, window * 9 // 10)
        assert f"{window:,}" in result.window_source


class TestCodexBlocks:
    def test_reads_are_served_from_1024_in_128_token_blocks(self) -> None:
        reqs = (
            req(1, 10_000, 4_096, 0, 100, CODEX, 0),
            req(2, 12_345, 0, 0, 100, CODEX, 1_000 + MIN),
            # 11 minutes idle: past the assumed 10 minutes, cold (spec §17).
            req(3, 13_000, 0, 0, 100, CODEX, 2_000 + 12 * MIN),
            req(4, 900, 0, 0, 100, CODEX, 3_000 + 12 * MIN),
        )
        got, prefix = modelled_split(reqs, cache_model(OPENAI_CACHE))
        assert prefix == 4_096
        # 10,000 shared: 10,000 - (10,000 - 1,024) mod 128 = 9,984; after the gap
        # nothing; 900 < 1,024 is never served.
        assert [r.cache_read for r in got] == [4_096, 9_984, 0, 0]
        # No write premium: the rest is plain input.
        assert [r.cache_write for r in got] == [0, 0, 0, 0]
        assert [r.input for r in got] == [5_904, 2_361, 13_000, 900]
        result = as_run(log_of("codex", LogSeries("main", reqs, ()), window=258_400))
        # 400 output x $10 + 14,080 cached x $0.125 + 22,165 input x $1.25, per million.
        assert result.modelled_cost == Decimal("0.004") + Decimal("0.00176") + Decimal("0.02770625")


class TestTextAndStats:
    @pytest.mark.parametrize(
        ("r", "text"),
        [
            (Decimal("0.00449"), "+0.4 %"),
            (Decimal("0.00450"), "+0.4 %"),  # half-even: 0.45 -> 0.4
            (Decimal("0.00550"), "+0.6 %"),  # half-even: 0.55 -> 0.6
            (Decimal("-0.0304"), "−3.0 %"),  # U+2212, the minus sign
            (Decimal("-0.0004"), "±0.0 %"),  # rounds to zero: no sign
            (Decimal(0), "±0.0 %"),
            (None, "unknown"),
        ],
    )
    def test_ratio_text(self, r: Decimal | None, text: str) -> None:
        assert ratio_text(r) == text

    @pytest.mark.parametrize(
        ("errors", "stats"),
        [([], (None, None)), ([7], (7, 7)), ([5, 1, 3, 2], (2, 5)), ([4, 9, 1], (4, 9))],
    )
    def test_error_stats_lower_middle(
        self, errors: list[int], stats: tuple[int | None, int | None]
    ) -> None:
        assert error_stats(errors) == stats


@pytest.mark.parametrize(
    ("first", "rules", "off"),
    [
        # Anthropic reports its writes: a first request of 4,096 tokens or more that
        # neither read nor wrote ran without the cache.
        (req(1, CACHE_OFF_FROM, 0, 0, 10, SONNET), ANTHROPIC_CACHE, True),
        (req(1, 16_878, 0, 0, 237, HAIKU), ANTHROPIC_CACHE, True),
        # Below the largest minimum: too short to be cached whatever the setting.
        (req(1, CACHE_OFF_FROM - 1, 0, 0, 10, SONNET), ANTHROPIC_CACHE, False),
        # It wrote, or it read: the cache was on.
        (req(1, 20_000, 0, 20_000, 10, SONNET), ANTHROPIC_CACHE, False),
        (req(1, 20_000, 17_000, 0, 10, SONNET), ANTHROPIC_CACHE, False),
        # OpenAI reports no writes: a first request that read nothing is a cold cache.
        (req(1, 20_000, 0, 0, 10, CODEX), OPENAI_CACHE, False),
    ],
)
def test_a_series_whose_first_request_used_no_cache_ran_without_it(
    first: LogRequest, rules: Any, off: bool
) -> None:
    later = req(2, 30_000, 0, 0, 10, first.model or SONNET, 60_000)
    assert cache_off([first, later], cache_model(rules)) is off


def test_a_series_without_the_cache_is_modelled_uncached() -> None:
    # The later requests would read the first one's 20,000 with the cache on; the
    # series ran without it, so the model predicts what the log billed, to the token.
    main = LogSeries(
        name="main",
        requests=(
            req(2, 20_000, 0, 0, 500, SONNET, 0),
            req(4, 25_000, 0, 0, 500, SONNET, 10_000),
            req(6, 30_000, 0, 0, 500, SONNET, 20_000),
        ),
        compactions=(),
    )
    result = as_run(log_of("claude-code", main))
    (series,) = result.series
    assert series.cache_off is True
    assert series.as_dict()["cache_off"] is True
    assert series.modelled.usage == series.measured.usage
    assert result.modelled_cost == result.measured_cost
    assert series.cache_errors == (0, 0, 0)
    # The independent oracle (tests/asrun_oracle.py, from docs/replay.md) agrees.
    oracle = oracle_series(main, ANTHROPIC)
    assert (oracle.modelled, oracle.modelled_cost) == (series.modelled.usage, result.modelled_cost)
    # Any other series' object has no such key.
    (other,) = as_run(log_of("claude-code", CLAUDE_MAIN)).series
    assert "cache_off" not in other.as_dict()


def test_unknown_model_costs_are_unknown_never_zero() -> None:
    main = LogSeries("main", (req(1, 5_000, 0, 5_000, 10, "mystery-model-x"),), ())
    result = as_run(log_of("claude-code", main))
    assert result.measured_cost is None
    assert result.modelled_cost is None
    assert result.ratio is None
    assert result.as_dict()["modelled_cost"] is None
    assert "unknown" in result.line()


def test_predicted_compactions_is_the_profiles_rule() -> None:
    prof = profile("codex")
    main = LogSeries("main", (req(1, 200_000, 0, 0, 44_800, CODEX),), ())
    # Codex: T >= floor(0.9 x W); 244,800 reached exactly.
    assert predicted_compactions(main, 244_800, prof.fires) == (1,)
    assert predicted_compactions(main, 244_801, prof.fires) == ()


def test_the_runtimes_own_count_is_compared_where_the_log_gives_it() -> None:
    # Codex's count after a request is its total tokens plus the reasoning it carries
    # (series.counts); input plus output alone (240,000 + 1,000) stays below 244,800.
    reqs = (req(1, 100_000, 0, 0, 1_000, CODEX), req(2, 240_000, 0, 0, 1_000, CODEX))
    plain = LogSeries("main", reqs, ())
    carried = LogSeries("main", reqs, (), counts=(101_000 + 9_000, 241_000 + 9_000))
    assert as_run(log_of("codex", plain, window=258_400)).predicted_compactions == ()
    assert as_run(log_of("codex", carried, window=258_400)).predicted_compactions == (2,)
    # A count that does not cover every request is not the runtime's: not used.
    partial = LogSeries("main", reqs, (), counts=(250_000,))
    assert as_run(log_of("codex", partial, window=258_400)).predicted_compactions == ()


@pytest.mark.parametrize(
    ("line", "tokens"),
    [
        # openai/codex history.rs: ceil((floor(n x 3 / 4) - 650) / 4) for n payload bytes.
        (b'{"type":"reasoning","encrypted_content":"' + b"A" * 32_867 + b'"}', 6_000),
        (b'{"encrypted_content": "' + b"A" * 1_000 + b'"}', 25),  # (750 - 650) / 4
        (b'{"encrypted_content":"' + b"A" * 866 + b'"}', 0),  # 649 - 650: never below 0
        (b'{"encrypted_content":"' + b"A" * 871 + b'"}', 1),  # 653 - 650 = 3 bytes: 1 token
        (b'{"type":"reasoning","encrypted_content":null}', 0),  # no payload: not counted
        (b'{"type":"reasoning","summary":[]}', 0),
        # A sanitized rollout keeps the payload's length in its placeholder: 1,419 - 650.
        (b'{"encrypted_content":"[REDACTED_ENCRYPTED_CONTENT len=1892 sha=f0869daf]"}', 193),
    ],
)
def test_codex_reasoning_estimate(line: bytes, tokens: int) -> None:
    assert reasoning_estimate(line) == tokens


def test_codex_counts_the_tool_outputs_recorded_after_a_response() -> None:
    # history.rs: the items after the last one the model wrote (the tool outputs,
    # written after the response's token_count) count their serialized bytes / 4,
    # rounded up; a reasoning item after the last user message is not carried yet.
    from budgetcore.replay.logs import read_session  # noqa: PLC0415

    def line(s: int, kind: str, payload: dict[str, Any]) -> str:
        return json.dumps(
            {"timestamp": f"2026-09-01T10:00:{s:02d}.000Z", "type": kind, "payload": payload},
            separators=(",", ":"),
        )

    def usage(i: int, o: int) -> dict[str, int]:
        return {
            "input_tokens": i,
            "cached_input_tokens": 0,
            "output_tokens": o,
            "reasoning_output_tokens": 0,
            "total_tokens": i + o,
        }

    def tokens(s: int, i: int, o: int, total: int) -> str:
        info = {
            "total_token_usage": usage(total, 0),
            "last_token_usage": usage(i, o),
            "model_context_window": 258_400,
        }
        return line(s, "event_msg", {"type": "token_count", "info": info})

    output = {"type": "function_call_output", "call_id": "c1", "output": "x" * 1_000}
    lines = [
        line(0, "session_meta", {"id": "s", "cli_version": "0.104.0"}),
        line(1, "turn_context", {"model": "gpt-5.3-codex"}),
        line(2, "event_msg", {"type": "user_message", "message": "x"}),
        line(3, "response_item", {"type": "reasoning", "encrypted_content": "A" * 32_867}),
        line(4, "response_item", {"type": "function_call", "call_id": "c1", "name": "x"}),
        tokens(5, 10_000, 100, 10_100),
        line(6, "response_item", output),
        tokens(7, 11_000, 100, 21_200),
    ]
    log = read_session([("rollout.jsonl", "\n".join(lines) + "\n")])
    size = len(json.dumps(output, separators=(",", ":")))
    assert log.main.counts == (10_100 + -(-size // 4), 11_100)


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("2.0.76", (2, 0, 76)),
        ("0.104.0-alpha.1", (0, 104, 0)),
        ("2.1", (2, 1)),
        ("10.2.3.4.5", (10, 2, 3, 4)),
        ("v2", None),
        ("", None),
        ("1234567.1", None),
    ],
)
def test_version_of(text: str, version: tuple[int, ...] | None) -> None:
    assert version_of(text) == version


def _claude_line(n: int, mid: str, parent: str | None, kind: str) -> str:
    entry: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "sessionId": "dddddddd-dddd-4ddd-8ddd-000000003701",
        "version": "2.0.76",
        "uuid": f"u{n}",
        "timestamp": f"2026-09-01T10:00:{n:02d}.000Z",
        "type": kind,
    }
    if kind == "user":
        entry["message"] = {"role": "user", "content": "x"}
    else:
        entry["message"] = {
            "id": mid,
            "role": "assistant",
            "model": SONNET,
            "content": [{"type": "text", "text": "x"}],
            "usage": {
                "input_tokens": 10,
                "cache_creation_input_tokens": 2_000,
                "cache_read_input_tokens": 0,
                "output_tokens": 5,
            },
        }
    return json.dumps(entry)


@pytest.mark.parametrize(
    ("prefix", "gateway", "title"),
    [
        ("msg_bdrk_01", "bedrock", "Amazon Bedrock"),
        ("msg_vrtx_01", "vertex", "Google Vertex AI"),
        ("msg_01", "", None),
    ],
)
def test_the_cloud_a_claude_code_log_names_is_said_beside_the_cache_rules(
    prefix: str, gateway: str, title: str | None
) -> None:
    # A message id names the cloud that answered (Bedrock "msg_bdrk_", Vertex
    # "msg_vrtx_"); Claude Code's changelog (2.1.86) says its tool descriptions held
    # dynamic content there, restarting the cache where the log cannot show it.
    from budgetcore.replay.logs import read_session  # noqa: PLC0415

    lines = [
        _claude_line(1, "", None, "user"),
        _claude_line(2, f"{prefix}A", "u1", "assistant"),
        _claude_line(3, "", "u2", "user"),
        _claude_line(4, f"{prefix}B", "u3", "assistant"),
    ]
    log = read_session([("s.jsonl", "\n".join(lines) + "\n")])
    assert log.gateway == gateway
    result = as_run(log)
    assert result.as_dict()["served_by"] == (gateway or None)
    source = result.cache.source
    assert (title is not None and f"served by {title}" in source) or (
        title is None and "served by" not in source
    )
    # Bedrock's cross-Region inference (AWS's prompt caching page) leaves the backtest
    # no baseline, named in the JSON; Vertex and the API keep the 5 % test alone.
    d = result.as_dict()
    if gateway == "bedrock":
        assert result.baseline_trusted is False
        assert "cross-Region inference" in result.caveat
        assert d["baseline_caveat"] == result.caveat
    else:
        assert (result.caveat, d["baseline_caveat"]) == ("", None)
        assert d["baseline_trusted"] == d["within_5_percent"] == result.trusted


def test_a_bedrock_session_is_no_baseline_even_within_5_percent(tmp_path: Path) -> None:
    # One request: the model takes the first request's read as measured, so the backtest
    # is exact (±0.0 %), and still no what-if may rest on it (docs/replay.md, "As run").
    log = tmp_path / "s.jsonl"
    log.write_text(
        "\n".join(
            [
                _claude_line(1, "", None, "user"),
                _claude_line(2, "msg_bdrk_01A", "u1", "assistant"),
            ]
        )
        + "\n"
    )
    (s,) = summaries("--log", str(log))
    a = s["as_run"]
    assert (a["served_by"], a["within_5_percent"], a["baseline_trusted"]) == (
        "bedrock",
        True,
        False,
    )
    assert a["baseline_caveat"].startswith("served by Amazon Bedrock")
    assert s["what_if"]["baseline_caveat"] == a["baseline_caveat"]
    assert s["what_if"]["backtest_within_5_percent"] is True
    table = run_cli(["replay", "--format", "table", "--log", str(log)])
    assert table.code == 0, table.err
    lines = table.out.splitlines()
    assert lines[2] == f"  no baseline for a what-if, whatever its error: {a['baseline_caveat']}"
    what_if = next(line for line in lines if line.startswith("What if K "))
    assert what_if.endswith(
        f"The backtest of this session is no baseline ({a['baseline_caveat']}): this is "
        "the model's what-if, not the session's."
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_names_the_cloud_and_a_whole_95_percent_window(lang: str) -> None:
    from budgetcore.messages import t  # noqa: PLC0415
    from budgetcore.ui.replay.backtest import as_run_html, window_evidence  # noqa: PLC0415

    main = LogSeries("main", (req(1, 50_000, 0, 0, 0, "gpt-5.1-codex"),), ())
    log = log_of("codex", main, window=258_400)
    result = as_run(log)
    assert window_evidence(result, log, lang) == t(
        "asrun.window.codex-95-whole", lang, logged="258,400", whole="272,000"
    )
    claude = dataclasses.replace(
        log_of("claude-code", LogSeries("main", (req(1, 5_000, 0, 5_000, 10, SONNET),), ())),
        gateway="bedrock",
    )
    bedrock = as_run(claude)
    assert bedrock.trusted is True  # one request: exact
    page = str(as_run_html(bedrock, claude, lang))
    assert 'data-served-by="bedrock"' in page
    assert t("asrun.served.bedrock", lang) in page
    # Within 5 % and still no baseline: the page names the cause.
    assert 'data-baseline-untrusted="bedrock"' in page
    assert t("asrun.untrusted.bedrock", lang) in html.unescape(page)
    plain = log_of("claude-code", LogSeries("main", (req(1, 5_000, 0, 5_000, 10, SONNET),), ()))
    shown = str(as_run_html(as_run(plain), plain, lang))
    assert "data-served-by" not in shown
    assert "data-baseline-untrusted" not in shown


def test_two_compactions_in_one_gap_compare_the_first_ones_count() -> None:
    # docs/replay.md "Predicted compactions": the rule compares "the log's preTokens
    # where it compacted". An automatic compaction at 170,000 followed, with no request
    # between, by a manual /compact of what it left (20,000): the runtime compacted at
    # 170,000, so the rule fires there. Before the fix the second one's count won.
    main = LogSeries(
        "main",
        (
            req(1, 100_000, 0, 0, 1_000, SONNET),
            req(2, 150_000, 0, 0, 1_000, SONNET),
            req(3, 30_000, 0, 0, 1_000, SONNET),
        ),
        (comp(2, 170_000), comp(2, 20_000, "manual")),
    )
    result = as_run(log_of("claude-code", main))
    assert result.logged_compactions == (2,)
    assert result.predicted_compactions == (2,)


def test_a_compaction_before_the_first_request_is_compared_on_its_pretokens() -> None:
    main = LogSeries("main", (req(1, 30_000, 0, 0, 1_000, SONNET),), (comp(0, 168_000),))
    assert as_run(log_of("claude-code", main)).predicted_compactions == (0,)


# ------------------------------------------------------------------ the CLI, on fixtures
# tests/fixtures/logs/asrun/make.py writes them and says what each one holds.

CLAUDE_DIR = LOG_FIXTURES / "claude" / "27-asrun-backtest" / "projects" / "-home-user-proj"
CLAUDE_LOG = CLAUDE_DIR / "dddddddd-dddd-4ddd-8ddd-000000002701.jsonl"
ONE_HOUR_LOG = CLAUDE_DIR / "dddddddd-dddd-4ddd-8ddd-000000002702.jsonl"
CODEX_DIR = LOG_FIXTURES / "codex" / "asrun-trigger" / "sessions"
CODEX_REASONING_DIR = LOG_FIXTURES / "codex" / "asrun-reasoning" / "sessions"
CODEX_WRITES_DIR = LOG_FIXTURES / "codex" / "asrun-writes" / "sessions"
CODEX_TURNS_DIR = LOG_FIXTURES / "codex" / "asrun-turns" / "sessions"
CODEX_UNBILLED_DIR = LOG_FIXTURES / "codex" / "asrun-writes-unbilled" / "sessions"
CLAUDE_2_0_LOG = (
    LOG_FIXTURES
    / "claude"
    / "28-asrun-2.0"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002703.jsonl"
)

VERSION_FIRST_LINE_LOG = (
    LOG_FIXTURES
    / "claude"
    / "33-asrun-version-first-line"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002708.jsonl"
)

CACHE_OFF_LOG = (
    LOG_FIXTURES
    / "claude"
    / "34-asrun-cache-off"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002709.jsonl"
)

MICROCOMPACT_LOG = (
    LOG_FIXTURES
    / "claude"
    / "36-asrun-microcompact"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002710.jsonl"
)

RESUME_LOG = (
    LOG_FIXTURES
    / "claude"
    / "37-asrun-resume"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002711.jsonl"
)

EXIT_LOG = (
    LOG_FIXTURES
    / "claude"
    / "40-asrun-exit"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002714.jsonl"
)

IDLE_LOG = (
    LOG_FIXTURES
    / "claude"
    / "38-asrun-idle"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002712.jsonl"
)

SENT_LOG = (
    LOG_FIXTURES
    / "claude"
    / "39-asrun-sent"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002713.jsonl"
)

NOTICE_LOG = (
    LOG_FIXTURES
    / "claude"
    / "29-asrun-notice"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002705.jsonl"
)


@pytest.mark.parametrize(
    ("model", "traits"),
    [
        # Anthropic, "Extended thinking with prompt caching": earlier Opus/Sonnet models
        # and all Haiku models drop earlier turns' thinking blocks, Opus 4.5+ and Sonnet
        # 4.6+ keep them; Opus 4.6 and Sonnet 4.6 think adaptively.
        ("claude-sonnet-4-5-20250929", (False, False)),
        ("claude-sonnet-4-20250514", (False, False)),
        ("claude-3-7-sonnet-20250219", (False, False)),
        ("claude-opus-4-1-20250805", (False, False)),
        ("claude-haiku-4-5-20251001", (False, False)),
        ("claude-opus-4-5-20251101", (True, False)),
        ("claude-opus-4-6", (True, True)),
        ("claude-sonnet-4-6", (True, True)),
        ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", (False, False)),
        ("gpt-5-codex", None),
        (None, None),
    ],
)
def test_thinking_traits_by_model(model: str | None, traits: tuple[bool, bool] | None) -> None:
    assert _thinking_traits(model) == traits


THINKING_LOG = (
    LOG_FIXTURES
    / "claude"
    / "31-asrun-thinking"
    / "projects"
    / "-home-user-proj"
    / "dddddddd-dddd-4ddd-8ddd-000000002707.jsonl"
)

#: Every key docs/replay.md ("As run: the backtest", "What if") and docs/spec.md §17 list.
AS_RUN_KEYS = {
    "runtime",
    "runtime_version",
    "window",
    "window_source",
    "trigger_tokens",
    "trigger_rule",
    "settings_source",
    "cache_rules",
    "served_by",
    "measured",
    "modelled",
    "measured_cost",
    "modelled_cost",
    "ratio",
    "within_5_percent",
    "baseline_trusted",
    "baseline_caveat",
    "cache_error_median",
    "cache_error_max",
    "logged_compactions",
    "manual_compactions",
    "predicted_compactions",
    "series",
}
SERIES_KEYS = {
    "series",
    "requests",
    "billed_as_logged",
    "stable_prefix_tokens",
    "cache_lifetime",
    "measured",
    "modelled",
    "measured_cost",
    "modelled_cost",
    "cache_error_median",
    "cache_error_max",
}
WHAT_IF_KEYS = {
    "modelled_cost",
    "as_run_modelled_cost",
    "delta",
    "summary_calls",
    "generations",
    "compression",
    "turns_with_unseen",
    "peak_unseen",
    "rejected",
    "backtest_within_5_percent",
    "baseline_caveat",
}
DELTA_KEYS = {"input", "cache_write", "cache_read", "output", "summary_calls", "total"}


def summaries(*argv: str) -> list[dict[str, Any]]:
    result = run_cli(["replay", "--format", "jsonl", *argv])
    assert result.code == 0, result.err
    rows = [json.loads(line) for line in result.out.splitlines()]
    # A turn's row has a "summary" too (its summary tokens): the session's is an object.
    return [r["summary"] for r in rows if isinstance(r.get("summary"), dict)]


def _restarts_at_the_third_request(log: ParsedLog, path: Path, third_read: int) -> None:
    """The four-request fixtures of make.py whose third request restarts the cache (a
    resume reads the stable prefix 12,000; a gap past the lifetime reads nothing):
    the model reads what the log read, to the token, and the what-if that changes
    nothing (no context reaches K 32,000) restarts at the same request."""
    got = as_run(log)
    (main,) = got.series
    assert main.stable_prefix == 12_000
    assert main.modelled.usage.cache_read == 12_000 + 15_003 + third_read + 16_506
    assert main.cache_errors == (0,) * 4
    # Measured and modelled differ only by the 3 uncached tokens of each of the
    # four requests, billed as writes: $3.75 - $3 per million, 12 tokens.
    assert got.modelled_cost - got.measured_cost == Decimal("0.00000900")
    (s,) = summaries("--log", str(path))
    assert s["as_run"]["modelled"]["cache_read"] == main.modelled.usage.cache_read
    assert s["runs"] == 0
    assert all(Decimal(v) == 0 for v in s["what_if"]["delta"].values())


class TestCli:
    def test_the_summary_has_every_as_run_key_and_the_logs_figures(self) -> None:
        (s,) = summaries("--log", str(CLAUDE_LOG))
        a = s["as_run"]
        assert a.keys() >= AS_RUN_KEYS
        assert (a["runtime"], a["window"], a["trigger_tokens"]) == ("claude-code", 200_000, 167_000)
        # An automatic compaction at preTokens 167,300 >= 167,000: predicted where logged;
        # the manual one is shown apart.
        assert a["logged_compactions"] == a["predicted_compactions"] == [3]
        assert a["manual_compactions"] == [5]
        names = [x["series"] for x in a["series"]]
        assert names == ["main", "sidechain:a27b0c0d", "sidechain:acompact-27aa"]
        for x in a["series"]:
            assert x.keys() >= SERIES_KEYS
        assert [x["billed_as_logged"] for x in a["series"]] == [False, False, True]
        summary_call = a["series"][2]
        assert summary_call["measured"] == summary_call["modelled"]
        # Exact decimal strings, and the total is the series' sum.
        costs = [Decimal(x["modelled_cost"]) for x in a["series"]]
        assert Decimal(a["modelled_cost"]) == sum(costs)
        assert Decimal(a["ratio"]) == Decimal(a["modelled_cost"]) / Decimal(a["measured_cost"]) - 1
        # Request 5, 7 minutes after request 4, read the stable prefix 17,000 as logged
        # (as 14 of 60 such requests did on the held-out set, docs/replay.md "Idle
        # gaps"); spec §17 starts it cold and writes those 17,000 instead: +6.3 %.
        assert Decimal(a["modelled_cost"]) == Decimal("0.98686395")
        assert a["within_5_percent"] is False
        assert "200,000" in a["window_source"]

    def test_the_what_if_is_a_delta_per_kind_with_its_quality(self) -> None:
        (s,) = summaries("--log", str(CLAUDE_LOG))
        w = s["what_if"]
        assert w.keys() >= WHAT_IF_KEYS
        assert set(w["delta"]) == DELTA_KEYS
        parts = sum(Decimal(w["delta"][k]) for k in DELTA_KEYS - {"total"})
        assert parts == Decimal(w["delta"]["total"])
        assert Decimal(w["modelled_cost"]) - Decimal(w["as_run_modelled_cost"]) == parts
        assert w["as_run_modelled_cost"] == s["as_run"]["modelled_cost"]
        # Every published run folds the summary before it (spec §17): generations is
        # the number of runs, and each run writes at most what it read.
        assert w["generations"] == w["summary_calls"] == s["runs"]
        left, right = w["compression"].split(":")
        assert Decimal(left) >= 1
        assert right == "1"

    def test_a_one_hour_series_and_no_compaction_leaves_the_what_if_at_zero(self) -> None:
        (s,) = summaries("--log", str(ONE_HOUR_LOG))
        assert s["as_run"]["series"][0]["cache_lifetime"] == "1h"
        # K 32,000 above every context (18,003 at most), no gap past the hour: the
        # what-if's requests are the as-run ones (spec §17, "What if").
        assert s["runs"] == 0
        assert all(Decimal(v) == 0 for v in s["what_if"]["delta"].values())

    def test_codex_compacted_after_crossing_90_percent_of_w(self) -> None:
        (s,) = summaries("--log", str(CODEX_DIR))
        a = s["as_run"]
        assert (a["window"], a["trigger_tokens"]) == (272_000, 244_800)
        # Request 3: 240,000 + 5,000 = 245,000 >= 244,800, and the log compacted there.
        assert a["logged_compactions"] == a["predicted_compactions"] == [3]
        assert a["cache_rules"]["block"] == 128

    def test_claude_code_2_0_compacted_at_its_own_earlier_line(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/28-asrun-2.0: preTokens 155,803 is
        # below 2.1's 167,000 and above 2.0's 155,000.
        (s,) = summaries("--log", str(CLAUDE_2_0_LOG))
        a = s["as_run"]
        assert (a["runtime_version"], a["trigger_tokens"]) == ("2.0.76", 155_000)
        assert a["logged_compactions"] == a["predicted_compactions"] == [3]

    def test_the_version_of_a_user_line_where_no_request_line_names_one(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/33-asrun-version-first-line: 28's
        # session with "version" on its first user line only; without it the trigger
        # would be 2.1's 167,000 and the logged compaction at 155,803 not predicted.
        (s,) = summaries("--log", str(VERSION_FIRST_LINE_LOG))
        a = s["as_run"]
        assert (a["runtime_version"], a["trigger_tokens"]) == ("2.0.76", 155_000)
        assert a["logged_compactions"] == a["predicted_compactions"] == [3]

    def test_a_session_that_ran_without_the_cache_is_modelled_without_it(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/34-asrun-cache-off: no cache counts
        # in the log; with the cache on the model would read and write 50,000 tokens.
        (s,) = summaries("--log", str(CACHE_OFF_LOG))
        a = s["as_run"]
        (main,) = a["series"]
        assert main["cache_off"] is True
        assert main["modelled"] == main["measured"]
        assert a["modelled_cost"] == a["measured_cost"]
        assert a["within_5_percent"] is True
        # The what-if runs without the cache too: no cache read or write appears.
        assert Decimal(s["what_if"]["delta"]["cache_read"]) == 0
        assert Decimal(s["what_if"]["delta"]["cache_write"]) == 0

    def test_a_summary_call_read_alone_predicts_no_compaction(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/35-asrun-acompact-alone: one summary
        # call of 169,248 tokens; as a conversation it would "compact" after request 1.
        (s,) = summaries("--log", str(LOG_FIXTURES / "claude" / "35-asrun-acompact-alone"))
        a = s["as_run"]
        (series,) = a["series"]
        assert (series["series"], series["billed_as_logged"]) == ("sidechain:acompact-35aa", True)
        assert a["logged_compactions"] == a["predicted_compactions"] == []
        assert a["trigger_tokens"] == 167_000
        assert series["measured"]["cache_read"] + series["measured"]["cache_write_5m"] > 167_000

    def test_codex_counts_the_reasoning_its_history_carries(self) -> None:
        # tests/fixtures/logs/asrun/make.py, codex/asrun-reasoning: request 4 ends at
        # 237,000 tokens, plus two carried reasoning items of 6,000 tokens each (Codex's
        # estimate of a 32,867-byte payload) = 249,000 >= 244,800; request 3's own
        # turn's reasoning is not carried yet (241,000).
        (s,) = summaries("--log", str(CODEX_REASONING_DIR))
        a = s["as_run"]
        assert (a["window"], a["trigger_tokens"]) == (272_000, 244_800)
        assert a["runtime_version"] == "0.63.0"  # session_meta's cli_version
        assert a["logged_compactions"] == a["predicted_compactions"] == [4]

    def test_a_task_notification_restarts_the_cache_at_the_stable_prefix(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/29-asrun-notice (docs/replay.md, "As
        # run", step 3): requests 3 and 4 follow a <task-notification>; 3 reads only
        # the stable prefix 17,000 (observed on Claude Code 2.1.39's public logs), 4
        # comes right after another notification and reads 3's whole 30,409.
        with NOTICE_LOG.open("rb") as f:
            log = read_session([(NOTICE_LOG.name, f)], None)
        assert log.main.notified == (2, 3)
        got = as_run(log)
        (main,) = got.series
        assert main.stable_prefix == 17_000
        assert main.modelled.usage.cache_read == 17_000 + 20_003 + 17_000 + 30_409 + 30_612
        # Measured and modelled differ only by the 3 uncached tokens of each of the
        # five requests, now billed as writes: $3.75 - $3 per million, 15 tokens.
        assert got.modelled_cost - got.measured_cost == Decimal("0.00001125")
        (s,) = summaries("--log", str(NOTICE_LOG))
        assert s["as_run"]["modelled"]["cache_read"] == main.modelled.usage.cache_read
        # The what-if restarts at the same request: a what-if that changes nothing
        # (no context reaches K 32,000) costs what the as-run model costs.
        assert s["runs"] == 0
        assert all(Decimal(v) == 0 for v in s["what_if"]["delta"].values())

    def test_cleared_tool_results_restart_the_cache_at_the_stable_prefix(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/36-asrun-microcompact (docs/replay.md,
        # "As run", step 3): Claude Code clears old tool results between requests 3 and
        # 4 (0-based: 2 and 3); request 4 reads only the stable prefix 10,000, as the
        # public 2.1.12-2.1.22 logs' did, not the 16,312 its shorter context shares with
        # request 3's 28,009.
        with MICROCOMPACT_LOG.open("rb") as f:
            log = read_session([(MICROCOMPACT_LOG.name, f)], None)
        assert log.main.cleared == (3,)
        assert log.main.notified == ()
        assert log.main.compactions == ()
        got = as_run(log)
        (main,) = got.series
        assert main.stable_prefix == 10_000
        assert main.modelled.usage.cache_read == 10_000 + 12_003 + 22_006 + 10_000 + 16_312
        assert main.cache_errors == (0,) * 5
        # Measured and modelled differ only by the 3 uncached tokens of each of the
        # five requests, billed as writes: $3.75 - $3 per million, 15 tokens.
        assert got.modelled_cost - got.measured_cost == Decimal("0.00001125")
        (s,) = summaries("--log", str(MICROCOMPACT_LOG))
        assert s["as_run"]["modelled"]["cache_read"] == main.modelled.usage.cache_read
        # The what-if restarts at the same request. No context reaches K 32,000, but its
        # engine keeps the larger context where the log's shrank (28,009 at requests 4
        # and 28,512 at 5): request 4 reads 10,000 and writes 18,009, request 5 writes
        # 503, where the as-run model wrote 6,312 and 503: 11,697 more written at
        # $3.75 per million (without the restart request 4 would read all 28,009).
        assert s["runs"] == 0
        assert Decimal(s["what_if"]["delta"]["cache_write"]) == Decimal("0.04386375")

    def test_a_resumed_session_restarts_the_cache_at_the_stable_prefix(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/37-asrun-resume (docs/replay.md,
        # "As run", step 3): the session is resumed (its SessionStart:resume hook line)
        # 60 seconds after request 2, inside the 5-minute lifetime; request 3 (0-based
        # 2) reads only the stable prefix 12,000, as the public 2.1.12-2.1.39 logs'
        # did, not request 2's whole 16,006. The startup hook line restarts nothing.
        with RESUME_LOG.open("rb") as f:
            log = read_session([(RESUME_LOG.name, f)], None)
        assert log.main.resumed == (2,)
        assert log.main.notified == ()
        assert log.main.cleared == ()
        assert log.main.compactions == ()
        _restarts_at_the_third_request(log, RESUME_LOG, third_read=12_000)

    def test_a_request_after_exit_comes_from_a_new_process_and_restarts_the_cache(
        self,
    ) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/40-asrun-exit (docs/replay.md, "As
        # run", step 3): /exit ends the Claude Code process, so request 3 (0-based 2),
        # sent 60 seconds after request 2 with no SessionStart:resume line (no hook is
        # configured), came from a new process that continued the session: it reads
        # only the stable prefix 12,000, as the 5 such public requests on the held-out
        # set read only their system prefix, not request 2's whole 16,006.
        with EXIT_LOG.open("rb") as f:
            log = read_session([(EXIT_LOG.name, f)], None)
        assert log.main.resumed == (2,)
        assert log.main.notified == log.main.cleared == ()
        assert log.main.compactions == ()
        _restarts_at_the_third_request(log, EXIT_LOG, third_read=12_000)

    def test_a_gap_past_the_lifetime_starts_cold(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/38-asrun-idle (spec §17: "a gap
        # longer than the lifetime starts cold"; docs/replay.md, "As run", step 2):
        # request 3 (0-based 2) is sent 365 seconds after request 2's last line and
        # reads nothing, writing its whole 16,506, as 40 of 60 such requests did on the
        # held-out Claude Code set. Before the fix the model read the stable prefix
        # 12,000 there, though the first request had read it.
        with IDLE_LOG.open("rb") as f:
            log = read_session([(IDLE_LOG.name, f)], None)
        assert log.main.resumed == log.main.notified == log.main.cleared == ()
        assert log.main.compactions == ()
        _restarts_at_the_third_request(log, IDLE_LOG, third_read=0)

    def test_the_lifetime_runs_from_when_each_request_was_sent(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/39-asrun-sent (docs/replay.md, "As
        # run", step 2; Anthropic: "The lifetime is measured from the start of the
        # request that writes or reads the cache entry, not from the end of its
        # response"). A request is sent when the entry it answers (its parentUuid) was
        # written. Request 3 (0-based 2) is sent 315 s after request 2 was sent, 130 s
        # after request 2's last line: it reads nothing. Request 4 is sent 4 s after
        # request 3, its first line 308 s after request 3's: it reads 3's whole 17,006.
        # Timed by first and last lines, the model read 16,006 at request 3 and
        # nothing at request 4.
        with SENT_LOG.open("rb") as f:
            log = read_session([(SENT_LOG.name, f)], None)
        main = log.main
        t0 = main.requests[0].started
        assert t0 is not None
        assert [r.sent for r in main.requests] == [
            t0 - 5_000 + s * 1_000 for s in (0, 15, 330, 334)
        ]
        assert [r.started for r in main.requests] == [
            t0 - 5_000 + s * 1_000 for s in (5, 20, 332, 640)
        ]
        assert main.requests[1].finished == t0 + 195_000
        got = as_run(log)
        (series,) = got.series
        assert series.stable_prefix == 12_000
        assert series.reads == [12_000, 15_003, 0, 17_006]
        assert series.cache_errors == (0,) * 4
        # Measured and modelled differ only by the 3 uncached tokens of each of the
        # four requests, billed as writes: $3.75 - $3 per million, 12 tokens.
        assert got.modelled_cost - got.measured_cost == Decimal("0.00000900")
        (s,) = summaries("--log", str(SENT_LOG))
        assert s["as_run"]["modelled"]["cache_read"] == 12_000 + 15_003 + 17_006
        assert all(Decimal(v) == 0 for v in s["what_if"]["delta"].values())

    def test_thinking_dropped_or_switched_restarts_the_cache(self) -> None:
        # tests/fixtures/logs/asrun/make.py, claude/31-asrun-thinking (docs/replay.md,
        # "As run", the thinking rules; Anthropic, "Extended thinking with prompt
        # caching"). Requests are 0-based here: 2 starts a turn after a thinking turn on
        # Sonnet 4.5 (its thinking blocks dropped: it reads what request 0 was sent,
        # 20,003); 3 and 5 switch thinking off and on (the stable prefix); 16 starts a
        # turn more than 20 blocks after the previous turn's first thinking response
        # (the stable prefix). Tool results start no turn.
        with THINKING_LOG.open("rb") as f:
            log = read_session([(THINKING_LOG.name, f)], None)
        main = log.main
        assert main.prompted == (0, 2, 3, 4, 5, 16)
        assert main.thinking == (0, 1, 2, *range(5, 17))
        reqs, _ = in_order(main)
        assert thinking_restarts(main, reqs, 300_000) == {2: 20_003, 3: None, 5: None, 16: None}
        got = as_run(log)
        (series,) = got.series
        assert series.stable_prefix == 17_000
        # Every request reads what it measured: each model read is the logged one.
        assert series.cache_errors == (0,) * 17
        assert series.modelled.usage.cache_read == series.measured.usage.cache_read
        # The 3 uncached tokens of each request are billed as writes: 17 x 3 tokens at
        # $3.75 - $3 per million.
        assert got.modelled_cost - got.measured_cost == Decimal("0.00003825")
        # With a 5-second lifetime, the entry request 1 last read (6 s before request 2)
        # is gone: the stable prefix.
        assert thinking_restarts(main, reqs, 5_000)[2] is None
        # The what-if restarts at the same requests: one that changes nothing (no
        # context reaches K 32,000) costs what the as-run model costs.
        (s,) = summaries("--log", str(THINKING_LOG))
        assert s["runs"] == 0
        assert all(Decimal(v) == 0 for v in s["what_if"]["delta"].values())

    def test_gpt_5_6_writes_what_it_does_not_read(self) -> None:
        # tests/fixtures/logs/asrun/make.py, codex/asrun-writes: GPT-5.6 bills cache
        # writes at $5 per million against $4 of input (the registry's prices), and the
        # model writes the rest of each context as Codex 0.145 logged it: 15,904 +
        # 10,032 + 10,048. Without the write the model billed them as input: $0.035984
        # less, 16.4 % under the bill.
        (path,) = sorted(CODEX_WRITES_DIR.rglob("*.jsonl"))
        with path.open("rb") as f:
            log = read_session([(path.name, f)], None)
        got = as_run(log)
        assert got.cache.writers == frozenset({"gpt-5.6"})
        assert got.cache.writes is False
        (main,) = got.series
        assert main.modelled.usage == main.measured.usage
        assert main.modelled.usage.cache_write_5m == 15_904 + 10_032 + 10_048
        assert got.modelled_cost == got.measured_cost
        (s,) = summaries("--log", str(CODEX_WRITES_DIR))
        assert s["as_run"]["cache_rules"]["writers"] == ["gpt-5.6"]
        assert Decimal(s["as_run"]["ratio"]) == 0

    def test_a_series_whose_first_request_wrote_nothing_bills_no_write(self) -> None:
        # tests/fixtures/logs/asrun/make.py, codex/asrun-writes-unbilled: asrun-writes'
        # GPT-5.6 rollout as Codex 0.155 logs it, every cache_write_input_tokens 0.
        # Request 1 left 15,904 tokens unread and wrote none: no request is modelled as
        # a write (with the write the model was 19.6 % over the bill).
        (path,) = sorted(CODEX_UNBILLED_DIR.rglob("*.jsonl"))
        with path.open("rb") as f:
            log = read_session([(path.name, f)], None)
        got = as_run(log)
        assert got.cache.writers == frozenset({"gpt-5.6"})  # the log's rules say so
        (main,) = got.series
        assert main.writes_unbilled is True
        assert main.modelled.usage == main.measured.usage
        assert main.modelled.usage.cache_write_5m == 0
        (s,) = summaries("--log", str(CODEX_UNBILLED_DIR))
        (series,) = s["as_run"]["series"]
        assert series["writes_unbilled"] is True
        assert Decimal(s["as_run"]["ratio"]) == 0
        # The what-if writes nothing either.
        assert Decimal(s["what_if"]["delta"]["cache_write"]) == 0
        # asrun-writes' first request wrote what it did not read: writes stay billed.
        (path,) = sorted(CODEX_WRITES_DIR.rglob("*.jsonl"))
        with path.open("rb") as f:
            (kept,) = as_run(read_session([(path.name, f)], None)).series
        assert kept.writes_unbilled is False
        assert "writes_unbilled" not in kept.as_dict()

    def test_openai_drops_the_reasoning_of_earlier_turns(self) -> None:
        # tests/fixtures/logs/asrun/make.py, codex/asrun-turns (docs/replay.md, "As
        # run", step 4; OpenAI, "Reasoning models"). 0-based: request 2 starts a user
        # turn after one that reasoned from request 0: it reads request 0's 20,000 in
        # blocks (19,968), not request 1's 21,000; request 4 follows a turn that did not
        # reason and reads request 3's whole 23,000 in blocks (22,912).
        (path,) = sorted(CODEX_TURNS_DIR.rglob("*.jsonl"))
        with path.open("rb") as f:
            log = read_session([(path.name, f)], None)
        main = log.main
        assert main.prompted == (0, 2, 4)
        reqs, _ = in_order(main)
        assert reasoning_restarts(main, reqs) == {2: 20_000}
        got = as_run(log)
        (series,) = got.series
        assert series.cache_errors == (0,) * 5
        assert series.modelled.usage == series.measured.usage
        assert got.modelled_cost == got.measured_cost
        # Without the rule request 2 would read 20,992: 1,024 tokens at the cached price.
        plain, _ = modelled_split(reqs, got.cache, after_compaction=frozenset())
        assert plain[2].cache_read == 20_992
        # The what-if restarts at the same request: one that changes nothing costs what
        # the as-run model costs.
        (s,) = summaries("--log", str(CODEX_TURNS_DIR))
        assert s["runs"] == 0
        assert all(Decimal(v) == 0 for v in s["what_if"]["delta"].values())

    def test_a_write_price_below_the_input_price_is_no_premium(self) -> None:
        # LiteLLM lists azure/eu/gpt-4o's cache write at $1.38 per million against $2.75
        # of input: no write premium, so none of its requests is modelled as a write.
        (path,) = sorted(CODEX_WRITES_DIR.rglob("*.jsonl"))
        with path.open("rb") as f:
            log = read_session([(path.name, f)], None)
        text = path.read_text().replace('"gpt-5.6"', '"azure/eu/gpt-4o"')
        log = read_session([(path.name, io.BytesIO(text.encode()))], None)
        got = as_run(log)
        assert got.cache.writers == frozenset()
        assert got.modelled.usage.cache_write_5m == 0

    def test_csv_comments_carry_both(self) -> None:
        result = run_cli(["replay", "--format", "csv", "--log", str(CLAUDE_LOG)])
        assert result.code == 0, result.err
        comments = dict(
            line[2:].split(",", 1) for line in result.out.splitlines() if line.startswith("# ")
        )
        (s,) = summaries("--log", str(CLAUDE_LOG))
        assert json.loads(comments["as_run"]) == s["as_run"]
        assert json.loads(comments["what_if"]) == s["what_if"]

    def test_the_table_prints_the_backtest_first(self) -> None:
        result = run_cli(["replay", "--format", "table", "--log", str(CLAUDE_LOG)])
        assert result.code == 0, result.err
        lines = result.out.splitlines()
        assert lines[0].startswith("Session ")
        assert lines[1] == "As run: measured $0.92821665, modelled $0.98686395 (+6.3 %)"
        assert any(line.startswith("What if K 32,000 and S 8,192: modelled $") for line in lines)

    def test_a_folder_total_has_as_run(self) -> None:
        result = run_cli(["replay", "--format", "jsonl", "--log", str(CLAUDE_DIR.parent)])
        assert result.code == 0, result.err
        rows = [json.loads(line) for line in result.out.splitlines()]
        total = rows[-1]["total"]["as_run"]
        each = [r["summary"]["as_run"] for r in rows if isinstance(r.get("summary"), dict)]
        assert total["sessions"] == len(each) == 2
        assert Decimal(total["modelled_cost"]) == sum(Decimal(a["modelled_cost"]) for a in each)
        assert Decimal(total["measured_cost"]) == sum(Decimal(a["measured_cost"]) for a in each)
        assert total["sessions_without_baseline"] == 0

    def test_a_folder_counts_its_sessions_without_a_baseline(self) -> None:
        # claude/30-asrun-bedrock: within 5 % (±0.0 %), served by Amazon Bedrock.
        folder = LOG_FIXTURES / "claude" / "30-asrun-bedrock" / "projects"
        result = run_cli(["replay", "--format", "jsonl", "--log", str(folder)])
        assert result.code == 0, result.err
        total = [json.loads(line) for line in result.out.splitlines()][-1]["total"]["as_run"]
        assert (total["sessions"], total["sessions_outside_5_percent"]) == (1, 0)
        assert total["sessions_without_baseline"] == 1

    def test_usage_alone_is_the_import_without_a_backtest(self) -> None:
        # --usage is the ledger and the measured usage at the import's speed (the
        # backtest is a replay, docs/replay.md "As run"); without it the summary has it.
        (s,) = summaries("--usage", "--log", str(CLAUDE_LOG))
        assert "as_run" not in s
        (s,) = summaries("--log", str(CLAUDE_LOG))
        assert s["as_run"]["predicted_compactions"] == [3]

    def test_a_model_without_a_price_gives_null_never_zero(self, tmp_path: Path) -> None:
        log = tmp_path / "unknown.jsonl"
        log.write_text(ONE_HOUR_LOG.read_text().replace(SONNET, "mystery-model-x"))
        (s,) = summaries("--log", str(log))
        a = s["as_run"]
        assert a["measured_cost"] is None
        assert a["modelled_cost"] is None
        assert a["ratio"] is None
        assert a["within_5_percent"] is None
        assert a["series"][0]["modelled_cost"] is None
        table = run_cli(["replay", "--format", "table", "--log", str(log)])
        lines = table.out.splitlines()
        # No ratio where a cost is unknown ("modelled unknown (unknown)" said nothing).
        assert lines[1] == "As run: measured unknown, modelled unknown"
        # An unknown backtest is not one "off by more than 5 %" (it was said so before).
        (what_if_line,) = (line for line in lines if line.startswith("What if"))
        assert "not within 5 %" not in what_if_line
        assert "(unknown)" not in what_if_line
        assert "The backtest of this session is unknown" in what_if_line
        assert s["what_if"]["backtest_within_5_percent"] is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_gives_no_ratio_where_a_cost_is_unknown(tmp_path: Path, lang: str) -> None:
    """The eleventh walk (a Cline task with no model): "As run: measured unknown,
    modelled unknown (unknown)" and "unknown (unknown) from the as-run model": a ratio of
    two unknowns said nothing. The page says the costs, and no ratio, as the CLI does."""
    from budgetcore.messages import CATALOGUE  # noqa: PLC0415
    from budgetcore.replay.logs.session import run_session  # noqa: PLC0415
    from budgetcore.ui.replay.backtest import as_run_html, what_if_html  # noqa: PLC0415

    data = ONE_HOUR_LOG.read_text().replace(SONNET, "mystery-model-x").encode()
    log = read_session([("unknown.jsonl", io.BytesIO(data))], None)
    run = run_session("unknown.jsonl", log, scenario=None, options=None)
    assert run.as_run is not None
    assert run.what_if is not None
    unknown = CATALOGUE["asrun.unknown"][lang == "zh"]
    for part in (as_run_html(run.as_run, log, lang), what_if_html(run.what_if, lang)):
        shown = html.unescape(str(part))
        assert f"({unknown})" not in shown
        assert f"（{unknown}）" not in shown
    line = html.unescape(str(as_run_html(run.as_run, log, lang)))
    said = {
        "en": "As run: measured unknown, modelled unknown",
        "zh": "按实际运行:实测 未知,模型 未知",
    }
    assert said[lang] in line


def test_a_resumed_sessions_what_if_rests_on_the_same_baseline_as_its_as_run() -> None:
    # A folder bills each response once (docs/replay.md, "Folders"): the resumed
    # session's as_run leaves out the request the earlier session bills, and its what-if
    # is a delta from that same as-run model (spec §17), so what_if's baseline is the
    # as_run printed beside it. Before the fix the what-if kept the baseline of the
    # session read alone ($0.022905 against the as_run's $0.01389 here).
    folder = LOG_FIXTURES / "claude" / "14-resume-copy" / "projects"
    (first, resumed) = summaries("--log", str(folder))
    assert resumed["as_run"]["requests_billed_elsewhere"] == 1
    for s in (first, resumed):
        w, a = s["what_if"], s["as_run"]
        assert w["as_run_modelled_cost"] == a["modelled_cost"]
        assert Decimal(w["modelled_cost"]) == Decimal(a["modelled_cost"]) + Decimal(
            w["delta"]["total"]
        )


def test_a_summary_is_never_longer_than_what_it_summarises() -> None:
    from budgetcore.core.scenario import Config  # noqa: PLC0415
    from budgetcore.replay.logs.session import log_model  # noqa: PLC0415
    from budgetcore.replay.simulate import replay  # noqa: PLC0415
    from budgetcore.replay.whatif import log_replay_inputs, what_if  # noqa: PLC0415

    # The stable prefix is the 2 tokens the first request read: 3,998 of history.
    main = LogSeries("main", (req(1, 4_000, 2, 0, 0, CODEX, 0),), ())
    log = log_of("codex", main, window=258_400)
    backtest = as_run(log)
    scenario = dataclasses.replace(
        log_model(log, window=backtest.window).scenario,
        config=Config(trigger_tokens=4_000, summary_max_tokens=3_999),
    )
    turns, opts = log_replay_inputs(log, backtest, main.turns(), None)
    result = replay(scenario, turns, opts)
    w = what_if(log, backtest, scenario, result)
    assert w.generations == 1
    # spec §17: compression is a run's input over what it wrote. The run reads the
    # 3,998 tokens of history (below S = 3,999) and writes 3,998 (docs/spec.md §12:
    # min(S, what it read)), so 1:1, never 3,998:3,999.
    assert result.rows[0].new_raw == 3_998
    assert result.rows[0].written == 3_998
    assert w.compression == 1


def test_a_what_if_that_changes_nothing_costs_the_as_run_model_with_a_rewind() -> None:
    # spec §17 "What if": abandoned branches are the as-run model's on both sides. A
    # rewind of the first prompt is the first request sent: the stable prefix (0 here)
    # is calibrated on it, and the branch's first request reads min(21,000, 20,000) by
    # step 4 on both sides. Before the fix the what-if calibrated on the branch alone
    # (P 10,000) and billed +$0.0345 for a K no request reaches.
    from budgetcore.core.scenario import Config  # noqa: PLC0415
    from budgetcore.replay.logs.session import log_model  # noqa: PLC0415
    from budgetcore.replay.simulate import replay  # noqa: PLC0415
    from budgetcore.replay.whatif import log_replay_inputs, what_if  # noqa: PLC0415

    main = LogSeries(
        "main",
        (
            req(2, 20_000, 10_000, 10_000, 100, SONNET, 5_000),
            req(3, 30_000, 20_000, 10_000, 100, SONNET, 10_000),
        ),
        (),
        abandoned=(req(1, 21_000, 0, 21_000, 100, SONNET, 0),),
    )
    log = log_of("claude-code", main)
    backtest = as_run(log)
    scenario = dataclasses.replace(
        log_model(log, window=backtest.window).scenario,
        config=Config(trigger_tokens=150_000),
    )
    turns, opts = log_replay_inputs(log, backtest, main.turns(), None)
    w = what_if(log, backtest, scenario, replay(scenario, turns, opts))
    assert w.delta["total"] == 0
    assert w.modelled_cost == backtest.modelled_cost


def test_the_report_prints_the_backtest_before_the_replay(tmp_path: Path) -> None:
    # docs/spec.md §17: "The CLI table, JSON Lines summary, CSV comments, the report and
    # the page show the baseline first".
    result = run_cli(["report", "--log", str(CLAUDE_LOG), "--out", str(tmp_path / "r")])
    assert result.code == 0, result.err
    text = (tmp_path / "r" / "summary.md").read_text("utf-8")
    assert "- As run: measured $" in text
    assert "- What if K 32,000 and S 8,192: modelled $" in text
    assert text.index("As run: measured") < text.index("## Session replay")
    assert "No baseline for a what-if" not in text


def test_the_report_says_a_bedrock_session_is_no_baseline(tmp_path: Path) -> None:
    log = next((LOG_FIXTURES / "claude" / "30-asrun-bedrock").rglob("*.jsonl"))
    result = run_cli(["report", "--log", str(log), "--out", str(tmp_path / "r")])
    assert result.code == 0, result.err
    text = (tmp_path / "r" / "summary.md").read_text("utf-8")
    said = "- No baseline for a what-if, whatever its error: served by Amazon Bedrock"
    assert text.index("- As run: measured") < text.index(said) < text.index("- What if K ")


@pytest.mark.parametrize(
    ("folder", "said", "zh"),
    [
        (
            "claude/34-asrun-cache-off",
            "Series main is modelled without the cache: its first request, 4,096 tokens or "
            "more, neither read nor wrote it.",
            "按不用缓存建模",
        ),
        (
            "codex/asrun-writes-unbilled",
            "Series main is modelled with no cache writes: its first request logged none of "
            "what it did not read from the cache.",
            "按不写缓存建模",
        ),
    ],
)
def test_a_series_set_aside_from_the_cache_rules_is_said_under_them(
    folder: str, said: str, zh: str
) -> None:
    """The eighth held-out round's two first-request rules (cache_off, writes_unbilled)
    were in the JSON alone: the table and the page said "Prompt cache predicted from
    <provider>'s rules" and nothing else, as if the rules applied to that series."""
    from budgetcore.ui.replay.backtest import as_run_html  # noqa: PLC0415

    table = run_cli(["replay", "--format", "table", "--log", str(LOG_FIXTURES / folder)])
    assert table.code == 0
    lines = table.out.splitlines()
    cache = next(i for i, line in enumerate(lines) if line.startswith("  cache: "))
    assert lines[cache + 1] == "  " + said
    files = sorted((LOG_FIXTURES / folder).rglob("*.jsonl"))
    log = read_session([(p.name, io.BytesIO(p.read_bytes())) for p in files], None)
    a = as_run(log)
    en, cn = (html.unescape(str(as_run_html(a, log, lang))) for lang in ("en", "zh"))
    assert f'<span data-cache-rule="main">{said}</span>' in en
    # The provider as its company writes it (the third walk: "anthropic's rules").
    maker = "Anthropic" if folder.startswith("claude") else "OpenAI"
    assert f"Prompt cache predicted from {maker}'s rules" in en
    assert f"序列“主会话”{zh}" in cn
    # A series of the same agent that used the cache says no such thing.
    plain = read_session([(CLAUDE_LOG.name, io.BytesIO(CLAUDE_LOG.read_bytes()))], None)
    assert "data-cache-rule" not in str(as_run_html(as_run(plain), plain, "en"))


def test_tune_gives_no_ratio_where_a_cost_is_unknown(tmp_path: Path) -> None:
    """Tune's "As run:" line of a session without a price said "(unknown)" after two
    unknown costs, as the replay's did (the eleventh walk)."""
    log = tmp_path / "unknown.jsonl"
    log.write_text(ONE_HOUR_LOG.read_text().replace(SONNET, "mystery-model-x"))
    result = run_cli(["tune", "--log", str(log), "--format", "table"])
    lines = [x for x in result.out.splitlines() if x.startswith("As run: ")]
    assert lines, result.out + result.err
    assert not any("not within 5 %" in x for x in lines), lines  # unknown is not "off"
    assert all(": measured unknown, modelled unknown  (unknown: " in x for x in lines), lines
    assert not any("(unknown)" in x for x in lines)
