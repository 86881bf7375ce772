"""The timing oracle (tests/timing_oracle.py) against hand-computed cases and docs/spec.md §15's
properties. Nothing here imports budgetcore: this checks the oracle itself.

The hand-computed cases share one small scenario in which every turn's request reaches
K (K = 0) and every run can take the whole backlog:

    M = floor(1 * 100,000) = 100,000; S = min(1,000, 10,000) = 1,000;
    C = floor(1 * 50,000) = 50,000; new raw budget = min(64,000, C - (A + 100)).
    Each turn adds 500 tokens, so
    - a run from the empty state (H = 500, c = 0, A = 0): new_raw 500, input
      100 + 0 + 500 = 600, writes min(S, 0 + 500) = 500 (docs/spec.md §12: never more
      than it read);
    - a run after one published run (H = 1,000, c = 500, A = 500): new_raw 500, input
      100 + 500 + 500 = 1,100, writes min(S, 1,000) = 1,000;
    - turn k's run when nothing was ever published (H = 500k, c = 0, A = 0): new_raw
      500k, input 100 + 500k.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from tests.replay_oracle import oracle_replay
from tests.timing_oracle import Undecided, oracle_timed_replay
from tests.timing_oracle_helpers import SCENARIO, timed

PRICES = {"input": "1", "output": "2"}  # per token: easy arithmetic
NEVER_FAILS = {"failure_rate": "0"}
ALWAYS_FAILS = {"failure_rate": "1"}  # random() < 1 always
TRIANGULAR = {"dist": "triangular", "low": 1_000, "high": 2_000}
ONE_S = {"fixed_s": "1"}
HALF = Fraction(1, 2)


def turns(n: int, **fields: Any) -> list[dict[str, Any]]:
    return [{"added": 500, **fields} for _ in range(n)]


def column(rows: list[dict[str, Any]], key: str) -> list[Any]:
    return [row[key] for row in rows]


def with_limits(model: int, run: int, lease: int) -> dict[str, Any]:
    return {
        **SCENARIO,
        "limits": {"model_timeout_s": model, "run_timeout_s": run, "lease_s": lease},
    }


class TestSectionTwelveIsUnchanged:
    @pytest.mark.parametrize(
        "options",
        [None, {}, {"cache": True, "stable_prefix_tokens": 300, "main_prices": PRICES}],
    )
    def test_without_timing_or_retries_the_result_is_oracle_replays_exactly(
        self, options: dict[str, Any] | None
    ) -> None:
        assert oracle_timed_replay(SCENARIO, turns(4), options) == oracle_replay(
            SCENARIO, turns(4), options
        )

    def test_gaps_longer_than_the_run_publish_every_run_before_the_next_turn(self) -> None:
        # Runs start at 0, 25 and 50 s and take 20 s: each ends before the next turn's
        # append, so every run publishes and each turn sees the one before it.
        rows, summary = oracle_timed_replay(SCENARIO, turns(3), timed("20", 25_000))
        assert column(rows, "time_ms") == [0, 25_000, 50_000]
        assert column(rows, "run_start_ms") == [0, 25_000, 50_000]
        assert column(rows, "run_end_ms") == [20_000, 45_000, 70_000]
        assert column(rows, "run_fate") == ["published"] * 3
        assert column(rows, "covered") == [0, 500, 1_000]
        # docs/spec.md §12: a run writes min(S, what it read): run 1 reads 500 of raw and
        # writes 500; run 2 reads 500 + 500, run 3 1,000 + 500, and each writes S.
        assert column(rows, "summary") == [0, 500, 1_000]
        assert column(rows, "summary_input") == [600, 1_100, 1_600]
        plain_rows, plain = oracle_replay(SCENARIO, turns(3))
        for row, plain_row in zip(rows, plain_rows, strict=True):
            assert {k: row[k] for k in plain_row} == plain_row
        assert {k: summary[k] for k in plain} == plain
        assert (summary["candidates"], summary["published"]) == (3, 3)
        assert summary["publish_rate"] == 1


class TestAppendsDecideThePublication:
    def test_an_append_at_exactly_the_end_does_not_discard(self) -> None:
        # Run 1: 0 s -> 20 s; turn 2 appends at 20,000 ms = 20 s, not before the end.
        rows, summary = oracle_timed_replay(SCENARIO, turns(2), timed("20", 20_000))
        assert rows[0]["run_fate"] == "published"
        # Turn 2 sees it: 500 tokens covered, summarised in 500 (min(S, what it read)).
        assert (rows[1]["covered"], rows[1]["summary"]) == (500, 500)
        # ... and at exactly its end the run no longer holds the slot: turn 2 starts one.
        assert rows[1]["status"] == "run"
        assert rows[1]["run_start_ms"] == 20_000
        assert summary["discarded"] == 0

    def test_an_append_one_millisecond_before_the_end_discards(self) -> None:
        # Turn 2 appends at 19,999 ms: 0 < 19.999 < 20, so run 1 is stale.
        rows, summary = oracle_timed_replay(SCENARIO, turns(2), timed("20", 19_999))
        assert rows[0]["run_fate"] == "discarded"
        assert (rows[0]["covered_after"], rows[0]["summary_after"]) == (0, 0)
        assert (rows[1]["covered"], rows[1]["summary"]) == (0, 0)
        assert (summary["discarded"], summary["published"], summary["candidates"]) == (1, 0, 1)
        assert summary["publish_rate"] == 0

    def test_a_discarded_run_holds_the_slot_so_the_next_qualifying_turn_starts_none(
        self,
    ) -> None:
        # Run 1: 0 -> 20 s, discarded by turn 2 at 19.999 s, but runs on until 20 s:
        # turn 2 (19.999 < 20) is "run in flight"; turn 3 at 39.998 s starts a run.
        rows, summary = oracle_timed_replay(SCENARIO, turns(3), timed("20", 19_999))
        assert column(rows, "status") == ["run", "run in flight", "run"]
        assert column(rows, "run_fate") == ["discarded", None, "published"]
        assert rows[1]["run_tries"] == 0
        assert (rows[1]["new_raw"], rows[1]["summary_input"], rows[1]["written"]) == (0, 0, 0)
        # Turn 3 covers all 1,500 tokens at once: nothing was ever published before it.
        assert (rows[2]["new_raw"], rows[2]["summary_input"]) == (1_500, 1_600)
        assert summary["in_flight_turns"] == 1

    def test_a_discarded_run_never_moves_c_or_a(self) -> None:
        # Runs at 0 s and 20 s (20 s each) are discarded by turns 2 (10 s) and 4 (30 s);
        # turns 2 and 4 find the slot held.
        rows, summary = oracle_timed_replay(
            SCENARIO, turns(4), timed("20", 10_000, summary_prices=PRICES, main_prices=PRICES)
        )
        assert column(rows, "status") == ["run", "run in flight", "run", "run in flight"]
        assert column(rows, "run_fate") == ["discarded", None, "discarded", None]
        assert {(r["covered"], r["summary"]) for r in rows} == {(0, 0)}
        assert {(r["covered_after"], r["summary_after"]) for r in rows} == {(0, 0)}
        # Both are billed: (600 + 500) + (1,600 + 1,000) tokens, every one of them wasted
        # (run 1 read 500 of raw and writes 500, run 2 read 1,500 and writes S).
        assert summary["discarded_tokens"] == 1_100 + 2_600
        assert summary["summary_tokens"] == 3_700
        assert summary["discarded_token_share"] == 1
        # At 1 and 2 per token: 600 + 1,000 and 1,600 + 2,000.
        assert summary["discarded_cost"] == 1_600 + 3_600
        assert summary["discarded_cost_share"] == 1

    def test_an_append_at_exactly_the_start_does_not_discard(self) -> None:
        # gap_1 = 0: turn 2 starts at 0 s, when run 1 starts, which is not after the start.
        # Run 1 publishes at 20 s; turn 2 (at 0 s) cannot see it, turn 3 (at 25 s) does.
        opts = timed("20")
        gapped = [{"added": 500, "gap_ms": 0}, {"added": 500, "gap_ms": 25_000}, {"added": 500}]
        rows, _ = oracle_timed_replay(SCENARIO, gapped, opts)
        assert column(rows, "time_ms") == [0, 0, 25_000]
        assert rows[0]["run_fate"] == "published"
        assert (rows[1]["covered"], rows[1]["summary"]) == (0, 0)
        assert rows[1]["status"] == "run in flight"
        # Run 1 read 500 of raw: its summary is 500 (min(S, what it read)).
        assert (rows[2]["covered"], rows[2]["summary"]) == (500, 500)
        # The state after turn 2 is what turn 3 is planned with.
        assert (rows[1]["covered_after"], rows[1]["summary_after"]) == (500, 500)

    def test_every_gap_longer_than_the_duration_publishes_every_run(self) -> None:
        rows, summary = oracle_timed_replay(SCENARIO, turns(6), timed("20", 20_001))
        assert column(rows, "run_fate") == ["published"] * 6
        assert (summary["candidates"], summary["published"], summary["discarded"]) == (6, 6, 0)
        assert summary["publish_rate"] == Fraction(6, 6)


class TestDurations:
    def test_prefill_and_decode_give_an_exact_fraction_of_seconds(self) -> None:
        # The run reads 500 of raw and writes 500 (min(S, what it read), docs/spec.md §12):
        # d = 600 / 3,000 + 500 / 3 = 1/5 + 500/3 = 2,503/15 s (166.8666... s).
        opts = {
            "timing": {"duration": {"prefill_tokens_per_s": "3000", "decode_tokens_per_s": "3"}}
        }
        rows, _ = oracle_timed_replay(with_limits(400, 500, 600), turns(1), opts)
        # 2,503 / 15 s = 166,866.6… ms, rounded up to the whole millisecond
        assert rows[0]["run_end_ms"] == 166_867
        assert isinstance(rows[0]["run_end_ms"], int)
        assert rows[0]["run_fate"] == "published"

    def test_a_fixed_duration_is_an_exact_decimal(self) -> None:
        # 19.999 s exactly (a float would not be): the append at 19,999 ms is at the end.
        rows, _ = oracle_timed_replay(SCENARIO, turns(2), timed("19.999", 19_999))
        assert rows[0]["run_end_ms"] == 19_999
        assert rows[0]["run_fate"] == "published"

    def test_a_float_duration_is_refused(self) -> None:
        with pytest.raises(ValueError, match="exact decimal"):
            oracle_timed_replay(SCENARIO, turns(1), {"timing": {"duration": {"fixed_s": 20.0}}})


class TestTimeouts:
    def test_a_try_longer_than_the_model_timeout_is_cut_and_its_usage_is_unknown(self) -> None:
        # 30.001 s > 30 s: cut at 0 + 30 s; abandoned, nothing known billed, never free.
        opts = timed("30.001", 60_000, main_prices=PRICES)
        rows, summary = oracle_timed_replay(SCENARIO, turns(2), opts)
        first = rows[0]
        assert first["run_fate"] == "abandoned"
        assert first["run_end_ms"] == 30_000
        assert (first["run_tries"], first["run_unknown_tries"]) == (1, 1)
        assert (first["summary_input_billed"], first["summary_output_billed"]) == (0, 0)
        assert first["cost"] is None
        assert (rows[1]["covered"], rows[1]["summary"]) == (0, 0)
        assert summary["unknown_tries"] == 2  # turn 2's run is cut the same way
        assert summary["abandoned"] == 2
        assert summary["candidates"] == 0
        assert summary["publish_rate"] is None
        for key in ("summary_input_tokens", "summary_tokens", "summary_cost", "cost"):
            assert summary[key] is None, key

    def test_a_try_of_exactly_the_model_timeout_is_not_cut(self) -> None:
        rows, _ = oracle_timed_replay(SCENARIO, turns(1), timed("30"))
        assert rows[0]["run_fate"] == "published"
        assert rows[0]["run_end_ms"] == 30_000

    def test_the_try_that_would_end_past_the_execution_timeout_is_cut_there(self) -> None:
        # Every try fails; tries end at 20, 40, 60, 80 s; the 5th would end at 100 > 90 s,
        # so it is cut at 90 s: abandoned (not failed), 4 tries billed, the 5th unknown.
        opts = timed("20", retries={**ALWAYS_FAILS, "max_resends": 10})
        rows, summary = oracle_timed_replay(SCENARIO, turns(1), opts)
        row = rows[0]
        assert row["run_fate"] == "abandoned"
        assert row["run_end_ms"] == 90_000
        assert (row["run_tries"], row["run_unknown_tries"]) == (5, 1)
        # Each try reads 500 of raw and writes 500 (min(S, what it read)).
        assert (row["summary_input_billed"], row["summary_output_billed"]) == (4 * 600, 4 * 500)
        assert (summary["failed"], summary["abandoned"]) == (0, 1)
        assert summary["retry_tokens"] is None  # the cut 5th try is a retry

    def test_tries_ending_exactly_at_the_execution_timeout_are_not_cut(self) -> None:
        # 4 tries of 22.5 s end at 22.5, 45, 67.5 and 90 s: none past 90 s; all fail.
        opts = timed("22.5", retries={**ALWAYS_FAILS, "max_resends": 3})
        rows, _ = oracle_timed_replay(SCENARIO, turns(1), opts)
        assert rows[0]["run_fate"] == "failed"
        assert rows[0]["run_end_ms"] == 90_000
        assert (rows[0]["run_tries"], rows[0]["run_unknown_tries"]) == (4, 0)

    def test_an_abandoned_run_holds_the_slot_until_the_cut_and_moves_nothing(self) -> None:
        # Cut at 30 s; turn 2 at 29.999 s finds the slot held, turn 3 at 30 s starts a run
        # from the untouched state (H = 1,500, c = 0, A = 0).
        gapped = [{"added": 500, "gap_ms": 29_999}, {"added": 500, "gap_ms": 1}, {"added": 500}]
        rows, _ = oracle_timed_replay(SCENARIO, gapped, timed("31"))
        assert column(rows, "status") == ["run", "run in flight", "run"]
        assert column(rows, "run_end_ms") == [30_000, None, 60_000]
        assert (rows[2]["covered"], rows[2]["summary"], rows[2]["new_raw"]) == (0, 0, 1_500)


class TestResend:
    def test_resend_up_to_n_is_n_plus_one_tries_each_billed_in_full(self) -> None:
        # N = 2, every try fails: 3 tries of 600 in + 500 out (the try read 500 of raw:
        # min(S, what it read), docs/spec.md §12); a failed run moves nothing.
        opts = {"retries": {**ALWAYS_FAILS, "max_resends": 2}, "main_prices": PRICES}
        rows, summary = oracle_timed_replay(SCENARIO, turns(1), opts)
        row = rows[0]
        assert (row["run_fate"], row["run_tries"]) == ("failed", 3)
        assert (row["run_start_ms"], row["run_end_ms"], row["time_ms"]) == (None, None, None)
        assert (row["summary_input_billed"], row["summary_output_billed"]) == (1_800, 1_500)
        assert (row["covered_after"], row["summary_after"]) == (0, 0)
        assert (summary["summary_input_tokens"], summary["summary_output_tokens"]) == (1_800, 1_500)
        assert summary["summary_tokens"] == 3_300
        assert summary["retry_tokens"] == 2 * 1_100
        assert summary["retry_token_share"] == Fraction(2, 3)
        # Main call 1,000 x 1 + 100 x 2 = 1,200; each try 600 x 1 + 500 x 2 = 1,600.
        assert row["cost"] == 1_200 + 3 * 1_600
        assert summary["summary_cost"] == 3 * 1_600
        assert summary["retry_cost"] == 2 * 1_600
        assert summary["retry_cost_share"] == Fraction(2, 3)
        assert summary["discarded_tokens"] == 0

    def test_the_n_plus_first_try_may_pass(self) -> None:
        # random.Random(7): 0.3238 < 0.5 fails, 0.1508 fails, 0.6509 passes.
        rng = random.Random(7)
        assert [Fraction(rng.random()) < HALF for _ in range(3)] == [True, True, False]
        policy = {"failure_rate": "0.5", "failure_seed": 7}
        rows, _ = oracle_timed_replay(SCENARIO, turns(1), {"retries": {**policy, "max_resends": 2}})
        assert (rows[0]["run_fate"], rows[0]["run_tries"]) == ("published", 3)
        # 500 of raw read, summarised in 500 (min(S, what it read)).
        assert (rows[0]["covered_after"], rows[0]["summary_after"]) == (500, 500)
        rows, _ = oracle_timed_replay(SCENARIO, turns(1), {"retries": {**policy, "max_resends": 1}})
        assert (rows[0]["run_fate"], rows[0]["run_tries"]) == ("failed", 2)
        assert (rows[0]["covered_after"], rows[0]["summary_after"]) == (0, 0)

    def test_a_discarded_run_bills_every_try(self) -> None:
        # Seed 7, p = 0.5: tries fail, fail, pass; 3 x 10 s = 30 s, and turn 2 appends at
        # 25 s: discarded, 3 x (600 + 500) tokens wasted, 2 of them retries (each try
        # read 500 of raw and writes 500: min(S, what it read)).
        opts = timed("10", 25_000, retries={"failure_rate": "0.5", "failure_seed": 7})
        rows, summary = oracle_timed_replay(SCENARIO, turns(2), opts)
        assert (rows[0]["run_fate"], rows[0]["run_tries"], rows[0]["run_end_ms"]) == (
            "discarded",
            3,
            30_000,
        )
        assert rows[1]["status"] == "run in flight"
        assert summary["discarded_tokens"] == 3 * 1_100
        assert summary["retry_tokens"] == 2 * 1_100

    def test_a_cut_try_takes_no_draw(self) -> None:
        # A choice where the contract is silent: the cut try gets no reply, so no format
        # check. random.Random(47) at p = 0.5: fail x 4, pass, fail, ... Run 1 (20 s
        # tries): tries 1-4 fail (draws 1-4), try 5 is cut at 90 s. Turn 2 at 90 s: its
        # first try takes draw 5 (0.5124, passes); had the cut try drawn, it would take
        # draw 6 (0.3924) and fail.
        rng = random.Random(47)
        draws = [Fraction(rng.random()) < HALF for _ in range(6)]
        assert draws == [True, True, True, True, False, True]
        opts = timed("20", 90_000, retries={"failure_rate": "0.5", "failure_seed": 47})
        rows, _ = oracle_timed_replay(SCENARIO, turns(2), opts)
        assert (rows[0]["run_fate"], rows[0]["run_tries"]) == ("abandoned", 5)
        assert (rows[1]["run_fate"], rows[1]["run_tries"]) == ("published", 1)


class TestBreaker:
    def test_the_third_failure_in_a_row_across_runs_opens_the_breaker_for_good(self) -> None:
        opts = {"retries": {**ALWAYS_FAILS, "policy": "breaker", "max_resends": 10}}
        rows, summary = oracle_timed_replay(SCENARIO, turns(6), opts)
        assert column(rows, "status") == ["run"] * 3 + ["breaker open"] * 3
        assert column(rows, "run_fate") == ["failed"] * 3 + [None] * 3
        assert column(rows, "run_tries") == [1, 1, 1, 0, 0, 0]  # one try per run
        assert column(rows, "summary_input_billed") == [600, 1_100, 1_600, 0, 0, 0]
        assert (summary["failed"], summary["breaker_open_turns"]) == (3, 3)

    def test_a_passing_try_resets_the_count(self) -> None:
        # random.Random(28) at p = 0.5: fail, fail, pass, fail, fail, fail. Without the
        # reset the breaker would open at run 4 (the 3rd failure); with it, at run 6.
        rng = random.Random(28)
        draws = [Fraction(rng.random()) < HALF for _ in range(6)]
        assert draws == [True, True, False, True, True, True]
        opts = {"retries": {"failure_rate": "0.5", "failure_seed": 28, "policy": "breaker"}}
        rows, _ = oracle_timed_replay(SCENARIO, turns(8), opts)
        assert column(rows, "run_fate") == [
            "failed",
            "failed",
            "published",
            "failed",
            "failed",
            "failed",
            None,
            None,
        ]
        assert column(rows, "status")[6:] == ["breaker open"] * 2

    def test_the_breaker_opens_when_the_failing_try_ends(self) -> None:
        # Three failed 20 s runs at 0, 25 and 50 s; the third ends at 70 s. Turn 4 at 65 s
        # finds that run in flight; turn 5 at 90 s finds the breaker open.
        opts = {
            "timing": {"duration": {"fixed_s": "20"}},
            "retries": {**ALWAYS_FAILS, "policy": "breaker"},
        }
        gaps = [25_000, 25_000, 15_000, 25_000]
        gapped = [{"added": 500, "gap_ms": g} for g in gaps] + [{"added": 500}]
        rows, _ = oracle_timed_replay(SCENARIO, gapped, opts)
        assert column(rows, "time_ms") == [0, 25_000, 50_000, 65_000, 90_000]
        assert column(rows, "status") == ["run", "run", "run", "run in flight", "breaker open"]

    def test_a_cut_try_neither_counts_nor_resets_the_breaker(self) -> None:
        # A choice where the contract is silent: a cut try is no format failure and no
        # passing try. d = input / 1,000,000 + written / 10 s: writing S = 100 takes about
        # 10 s, S = 1,000 about 100 s, cut at the 30 s model timeout. Every checked try
        # fails. Runs 1, 2 fail (count 2); run 3 writes 1,000 and is cut (still 2); run 4
        # fails (3): the breaker opens, turn 5 finds it open. (Had the cut counted, turn 4
        # would find it open; had it reset the count, turn 5 would start a run.)
        small_s = {**SCENARIO, "config": {**SCENARIO["config"], "summary_max_tokens": 100}}
        session = [
            {"added": 500},
            {"added": 500},
            {"added": 500, "set": {"config.summary_max_tokens": 1_000}},
            {"added": 500, "set": {"config.summary_max_tokens": 100}},
            {"added": 500},
        ]
        opts = {
            "timing": {
                "gap_ms": 100_000,
                "duration": {"prefill_tokens_per_s": "1000000", "decode_tokens_per_s": "10"},
            },
            "retries": {**ALWAYS_FAILS, "policy": "breaker"},
        }
        rows, _ = oracle_timed_replay(small_s, session, opts)
        assert column(rows, "run_fate") == ["failed", "failed", "abandoned", "failed", None]
        assert rows[4]["status"] == "breaker open"


class TestLogTimes:
    def test_times_going_backwards_clamp_forward(self) -> None:
        # reply_end 900 < time 1,000 is taken as 1,000 (the run starts there); the append
        # 5,000 after 7,000 is taken as 7,000, which is after run 1's end (1 + 5 = 6 s):
        # unclamped it would have discarded the run. Turn 2's time 500 is taken as 7,000.
        log = [
            {"added": 500, "time_ms": 1_000, "reply_end_ms": 900, "append_ms": [7_000, 5_000]},
            {"added": 500, "time_ms": 500},
        ]
        rows, _ = oracle_timed_replay(SCENARIO, log, {"timing": {"duration": {"fixed_s": "5"}}})
        assert column(rows, "time_ms") == [1_000, 7_000]
        assert rows[0]["run_start_ms"] == 1_000
        assert rows[0]["run_end_ms"] == 6_000
        assert rows[0]["run_fate"] == "published"
        # Run 1 read 500 of raw and wrote 500 (min(S, what it read)).
        assert (rows[1]["covered"], rows[1]["summary"]) == (500, 500)

    def test_the_run_starts_at_the_reply_line_and_a_later_line_is_an_append(self) -> None:
        # Run 2 s -> 22 s; the line at 5 s discards it; one at exactly 22 s would not.
        opts = {"timing": {"duration": {"fixed_s": "20"}}}
        stale = [{"added": 500, "time_ms": 0, "reply_end_ms": 2_000, "append_ms": [5_000]}]
        rows, _ = oracle_timed_replay(SCENARIO, stale, opts)
        assert (rows[0]["run_start_ms"], rows[0]["run_end_ms"]) == (2_000, 22_000)
        assert rows[0]["run_fate"] == "discarded"
        fresh = [{"added": 500, "time_ms": 0, "reply_end_ms": 2_000, "append_ms": [22_000]}]
        rows, _ = oracle_timed_replay(SCENARIO, fresh, opts)
        assert rows[0]["run_fate"] == "published"

    def test_a_later_turns_reply_line_is_an_append(self) -> None:
        # docs/spec.md §15: "any later timestamped line of the same series is an append". Turn 2's
        # first entry is at run 1's start (0 s, not after it), its reply line at 10 s is
        # inside run 1 (0 -> 20 s): run 1 is discarded.
        log = [
            {"added": 500, "time_ms": 0},
            {"added": 500, "time_ms": 0, "reply_end_ms": 10_000},
        ]
        rows, _ = oracle_timed_replay(SCENARIO, log, {"timing": {"duration": {"fixed_s": "20"}}})
        assert rows[0]["run_fate"] == "discarded"

    def test_a_turn_whose_reply_ends_after_the_run_in_flight_starts_its_own(self) -> None:
        # Run 1: 0 -> 20 s, discarded by turn 2's first entry at 10 s. Turn 2's reply ends
        # at 25 s, when the slot is free again (docs/spec.md §15: the run starts after the reply),
        # so its run starts then, from the untouched state.
        log = [
            {"added": 500, "time_ms": 0},
            {"added": 500, "time_ms": 10_000, "reply_end_ms": 25_000},
        ]
        rows, _ = oracle_timed_replay(SCENARIO, log, {"timing": {"duration": {"fixed_s": "20"}}})
        assert rows[0]["run_fate"] == "discarded"
        assert (rows[1]["status"], rows[1]["run_start_ms"], rows[1]["new_raw"]) == (
            "run",
            25_000,
            1_000,
        )


class TestDefaultGaps:
    def test_uniform_default_gaps_are_the_generators_draws_in_turn_order(self) -> None:
        # random.Random(1).randint(1_000, 9_000) x 4: 2,100, 5,662, 7,942, 7,572.
        opts = {
            "timing": {
                "gap_ms": {"dist": "uniform", "low": 1_000, "high": 9_000},
                "gap_seed": 1,
                "duration": {"fixed_s": "1"},
            }
        }
        rows, _ = oracle_timed_replay(SCENARIO, turns(5), opts)
        assert column(rows, "time_ms") == [0, 2_100, 7_762, 15_704, 23_276]

    def test_a_turns_own_gap_takes_no_draw(self) -> None:
        opts = {
            "timing": {
                "gap_ms": {"dist": "uniform", "low": 1_000, "high": 9_000},
                "gap_seed": 1,
                "duration": {"fixed_s": "1"},
            }
        }
        own = [{"added": 500, "gap_ms": 100}, *turns(2)]
        rows, _ = oracle_timed_replay(SCENARIO, own, opts)
        assert column(rows, "time_ms") == [0, 100, 2_200]


class TestUndecidedInputsAreRefused:
    @pytest.mark.parametrize(
        ("turn_list", "options"),
        [
            (turns(2), timed("1", None) | {"timing": {"gap_ms": TRIANGULAR, "duration": ONE_S}}),
            (turns(2), {"timing": {"gap_ms": 1_000}}),  # no duration
            (turns(2), {"timing": {"duration": {"fixed_s": "1"}}}),  # no gap for turn 1
            ([{"added": 1, "time_ms": 0}, {"added": 1, "gap_ms": 5}], timed("1")),
            (turns(1), {"retries": {"failure_seed": 1}}),  # no failure rate
        ],
    )
    def test_the_oracle_will_not_guess(
        self, turn_list: list[dict[str, Any]], options: dict[str, Any]
    ) -> None:
        with pytest.raises(Undecided):
            oracle_timed_replay(SCENARIO, turn_list, options)

    def test_a_publication_between_a_turns_time_and_its_runs_start_is_refused(self) -> None:
        # Run 1: 0 -> 20 s, published (turn 2's first entry is at its start, its reply
        # line at 30 s is after its end). Turn 2 was planned at 0 s, before the result;
        # its run would start at 30 s, after it.
        log = [{"added": 500, "time_ms": 0}, {"added": 500, "time_ms": 0, "reply_end_ms": 30_000}]
        with pytest.raises(Undecided, match="publishes between"):
            oracle_timed_replay(SCENARIO, log, timed("20"))


# ---------------------------------------------------------------------------------------
# Properties of the oracle alone (docs/spec.md §15)
