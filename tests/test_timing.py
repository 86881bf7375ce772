"""Background runs over time (docs/spec.md §15) in the replay: logs with timestamps,
options, outputs and the one-line errors. The rules themselves are checked against the
independent oracle in tests/property/test_timing_properties.py."""

from __future__ import annotations

import dataclasses
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from budgetcore.core.scenario import Config, Scenario
from budgetcore.errors import ScenarioError
from budgetcore.replay.logs import read_session
from budgetcore.replay.model import SUMMARY_KEYS, TIMING_ROW_KEYS, TIMING_SUMMARY_KEYS, Turn
from budgetcore.replay.options import parse_options
from budgetcore.replay.simulate import replay
from budgetcore.replay.turns import parse_turn_lines
from budgetcore.scenario.parse import parse_scenario
from tests.helpers import run_cli
from tests.timing_oracle import oracle_timed_replay

TIMED = Path(__file__).parent / "fixtures" / "logs" / "timed"
K_ZERO = Scenario(config=Config(trigger_tokens=0))
TWENTY_S = {"timing": {"duration": {"fixed_s": "20"}}}


def _log_turns(name: str) -> tuple[Turn, ...]:
    log = read_session([(name, (TIMED / name).read_bytes())])
    return log.main.turns(timed=True)


@pytest.mark.parametrize("name", ["claude-timed.jsonl", "codex-timed.jsonl"])
class TestLogsWithTimestamps:
    def test_a_tool_result_inside_the_run_discards_it_and_a_quiet_gap_publishes(
        self, name: str
    ) -> None:
        got = replay(K_ZERO, _log_turns(name), parse_options(TWENTY_S))
        assert [r.run_fate for r in got.rows] == ["discarded", "published", "published"]
        first = got.rows[0]
        # The request and its reply's line are at 2 s from the first entry, the tool
        # result lands at 7 s, the run would end at 22 s: billed, not published, the
        # slot held to its end.
        assert (first.time_ms, first.run_start_ms, first.run_end_ms) == (2_000, 2_000, 22_000)
        assert (first.covered_after, first.summary_after) == (first.covered, first.summary)
        s = got.summary
        assert (s.candidates, s.published, s.discarded) == (3, 2, 1)
        assert s.publish_rate == Fraction(2, 3)
        assert s.discarded_tokens == first.summary_input + first.written
        assert s.discarded_token_share == Fraction(s.discarded_tokens, s.summary_tokens)

    def test_the_log_s_times_give_what_the_independent_oracle_gives(self, name: str) -> None:
        turns = _log_turns(name)
        dicts = [
            {
                "added": t.added,
                "output": t.output,
                "time_ms": t.time_ms,
                "reply_end_ms": t.reply_end_ms,
                "append_ms": list(t.append_ms),
            }
            for t in turns
        ]
        scenario = {"config": {"trigger_tokens": 0}}
        rows, summary = oracle_timed_replay(scenario, dicts, TWENTY_S)
        got = replay(parse_scenario(scenario), turns, parse_options(TWENTY_S))
        assert [r.run_fate for r in got.rows] == [r["run_fate"] for r in rows]
        assert [r.covered_after for r in got.rows] == [r["covered_after"] for r in rows]
        assert got.summary.discarded_tokens == summary["discarded_tokens"]

    def test_a_longer_gap_than_the_run_publishes_every_candidate(self, name: str) -> None:
        fast = {"timing": {"duration": {"fixed_s": "4.999"}}}
        got = replay(K_ZERO, _log_turns(name), parse_options(fast))
        assert [r.run_fate for r in got.rows] == ["published"] * 3
        assert got.summary.publish_rate == 1

    def test_without_a_clock_the_log_replays_as_before(self, name: str) -> None:
        log = read_session([(name, (TIMED / name).read_bytes())])
        plain = replay(K_ZERO, log.main.turns())
        assert not plain.timed
        assert all(r.run_fate is None and r.time_ms is None for r in plain.rows)
        assert [r.status for r in plain.rows] == ["run"] * 3


def test_a_log_request_without_a_timestamp_is_named_when_timing_is_on() -> None:
    text = (TIMED / "claude-timed.jsonl").read_text()
    lines = text.splitlines()
    entry = json.loads(lines[1])
    del entry["timestamp"]
    lines[1] = json.dumps(entry)
    log = read_session([("x.jsonl", io.BytesIO("\n".join(lines).encode()))])
    with pytest.raises(ScenarioError, match="has no timestamp on the request of line 2"):
        log.main.turns(timed=True)


def _turns(*lines: dict[str, Any]) -> tuple[Turn, ...]:
    turns, problems = parse_turn_lines("\n".join(json.dumps(x) for x in lines))
    assert problems == ()
    return turns


class TestGaps:
    def test_a_gap_of_a_turn_wins_over_the_default_and_draws_are_seeded(self) -> None:
        opts = {"timing": {"gap_ms": {"dist": "uniform", "low": 0, "high": 60_000},
                           "gap_seed": 7, "duration": {"fixed_s": "20"}}}  # fmt: skip
        turns = _turns({"added": 50_000, "gap_ms": 1}, {"added": 50_000}, {"added": 1})
        a = replay(K_ZERO, turns, parse_options(opts))
        b = replay(K_ZERO, turns, parse_options(opts))
        assert [r.time_ms for r in a.rows] == [r.time_ms for r in b.rows]
        assert a.rows[1].time_ms == 1  # turn 1's own gap
        assert a.rows[0].run_fate == "discarded"  # the next turn starts 1 ms later

    def test_times_without_a_duration_model_are_refused(self) -> None:
        with pytest.raises(
            ScenarioError, match=r"turns carry times: a clock needs options\.timing"
        ):
            replay(K_ZERO, _turns({"added": 1, "gap_ms": 5}))

    def test_a_turn_without_a_gap_needs_the_default(self) -> None:
        with pytest.raises(ScenarioError, match=r"^turn 2 needs gap_ms"):
            replay(K_ZERO, _turns({"added": 1, "gap_ms": 5}, {"added": 1}), parse_options(TWENTY_S))

    def test_log_times_and_gaps_do_not_mix(self) -> None:
        turns = _turns({"added": 1, "time_ms": 5}, {"added": 1, "gap_ms": 5})
        with pytest.raises(ScenarioError, match="turn 2 must carry a time like every turn"):
            replay(K_ZERO, turns, parse_options(TWENTY_S))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timing": {}}, "options.timing.duration is required: fixed_s, or both rates"),
        (
            {"timing": {"duration": {"fixed_s": "1", "decode_tokens_per_s": "5"}}},
            "options.timing.duration gives fixed_s or the two rates, not both",
        ),
        (
            {"timing": {"duration": {"prefill_tokens_per_s": "0", "decode_tokens_per_s": "5"}}},
            "options.timing.duration.prefill_tokens_per_s must be a decimal from 0.001",
        ),
        ({"timing": {"duration": {"fixed_s": "-1"}}}, "options.timing.duration.fixed_s must be"),
        ({"timing": {"gap_ms": -5, "duration": {"fixed_s": "1"}}}, "options.timing.gap_ms must"),
        ({"timing": {"gap": 5, "duration": {"fixed_s": "1"}}}, "options.timing.gap is not a"),
        ({"retries": {"policy": "twice"}}, "options.retries.policy must be one of resend, breaker"),
        ({"retries": {"failure_rate": "1.5"}}, "options.retries.failure_rate must be a decimal"),
        ({"retries": {"max_resends": 101}}, "options.retries.max_resends must be an integer from"),
        (
            {"retries": {"failure_seed": -1}},
            "options.retries.failure_seed must be an integer from 0",
        ),
        ({"timing": 5}, "options.timing must be a JSON object"),
    ],
)
def test_every_bad_timing_option_names_its_field(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        parse_options(options)
    assert message in err.value.one_line()


def test_a_turn_line_with_a_gap_and_a_log_time_is_refused() -> None:
    _, problems = parse_turn_lines('{"added": 1, "gap_ms": 5, "time_ms": 3}\n{"added": 2}')
    assert [str(p) for p in problems] == [
        "line 1: gap_ms gives gap_ms or a log's times (time_ms, reply_end_ms), not both"
    ]


class TestOutputs:
    GEN = json.dumps({"turns": 6, "seed": 3, "added": 40_000})

    def test_jsonl_rows_and_summary_carry_the_timing_keys_only_with_a_clock(
        self, tmp_path: Path
    ) -> None:
        opts = tmp_path / "o.json"
        opts.write_text(json.dumps({"timing": {"gap_ms": 10_000, **TWENTY_S["timing"]}}))
        plain = run_cli(["replay", "--fragment", "config.trigger_tokens=0", "--generate", self.GEN,
                         "--format", "jsonl"])  # fmt: skip
        timed = run_cli(["replay", "--fragment", "config.trigger_tokens=0", "--generate", self.GEN,
                         "--format", "jsonl", "--options", str(opts)])  # fmt: skip
        assert (plain.code, timed.code) == (0, 0)
        p_rows = [json.loads(x) for x in plain.out.splitlines()]
        t_rows = [json.loads(x) for x in timed.out.splitlines()]
        assert not set(TIMING_ROW_KEYS) & set(p_rows[0])
        assert set(TIMING_ROW_KEYS) <= set(t_rows[0])
        assert list(p_rows[-1]["summary"]) == list(SUMMARY_KEYS)
        summary = t_rows[-1]["summary"]
        assert list(summary)[: len(SUMMARY_KEYS)] == list(SUMMARY_KEYS)
        assert set(TIMING_SUMMARY_KEYS) <= set(summary)
        assert summary["publish_rate"] == "0"  # every gap (10 s) is shorter than a run (20 s)
        assert t_rows[0]["run_end_ms"] == 20_000

    def test_the_table_says_each_run_s_fate_and_what_the_discarded_runs_cost(
        self, tmp_path: Path
    ) -> None:
        opts = tmp_path / "o.json"
        opts.write_text(json.dumps({"timing": {"gap_ms": 10_000, **TWENTY_S["timing"]}}))
        out = run_cli(["replay", "--fragment", "config.trigger_tokens=0", "--generate", self.GEN,
                       "--format", "table", "--options", str(opts)])  # fmt: skip
        assert out.code == 0
        assert "run fate" in out.out
        assert "discarded" in out.out
        assert "candidates: published / discarded" in out.out
        assert "discarded: tokens, cost, share of summary tokens" in out.out


def test_a_generated_replay_prints_its_turns_and_summary_as_a_table() -> None:
    out = run_cli(["replay", "--fragment", "", "--generate", '{"turns": 3, "added": 1000}',
                   "--format", "table"])  # fmt: skip
    assert out.code == 0
    assert out.out.startswith("Turns\n")
    assert "Summary" in out.out
    assert "no prices (tokens only)" in out.out


def test_with_no_clock_and_retries_that_never_fail_nothing_changes() -> None:
    turns = _turns(*({"added": 30_000} for _ in range(8)))
    plain = replay(K_ZERO, turns)
    retried = replay(K_ZERO, turns, parse_options({"retries": {"failure_rate": "0"}}))
    assert [r.as_dict() for r in plain.rows] == [r.as_dict() for r in retried.rows]
    assert retried.summary.as_dict().items() >= plain.summary.as_dict().items()
    assert dataclasses.replace(retried.summary, timed=False).as_dict() == plain.summary.as_dict()


def test_a_run_cut_after_billed_tries_leaves_its_resends_unknown_as_the_oracle_does() -> None:
    """tests/test_timing_oracle.py's case (every try fails and is resent; the 5th would
    end past the 90 s execution timeout and is cut) in the replay: four tries billed,
    the fifth unknown, so the resends' tokens are unknown (None, never 0), and every
    other total is the oracle's. Hypothesis rarely draws a cut after a billed try."""
    from tests.timing_oracle_helpers import SCENARIO, timed  # noqa: PLC0415
    from tests.timing_replay_helpers import _replay, assert_same  # noqa: PLC0415

    opts = timed("20", 1_000, retries={"failure_rate": "1", "max_resends": 10})
    got = _replay(SCENARIO, [{"added": 500}], opts)
    assert (got.rows[0].run_tries, got.rows[0].run_unknown_tries) == (5, 1)
    assert got.summary.retry_tokens is None
    assert_same(got, oracle_timed_replay(SCENARIO, [{"added": 500}], opts))
