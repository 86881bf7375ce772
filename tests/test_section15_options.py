"""docs/spec.md §15's last options (issue 41): failed tries that bill no output, and
appends counted as conversation lines only. Golden values worked by hand from §15's
text; the replay (replay.simulate, the engine recording each turn), the tune grid's
point (replay.engine.point_counts, counters only) and the independent oracle
(tests/timing_oracle.py) must all give them.

The scenario is tests/test_timing_oracle.py's: every turn reaches K (K = 0), a run from
the empty state reads 100 + 0 + 500 = 600 tokens and writes 500 (min(S, what it read)).
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from budgetcore import parse_scenario
from budgetcore.errors import ScenarioError
from budgetcore.replay.background import Duration, Retries, Timing
from budgetcore.replay.logs import read_session
from budgetcore.replay.logs.model import LogSeries
from budgetcore.replay.model import ReplayOptions, Turn
from budgetcore.replay.options import parse_options_json
from budgetcore.replay.simulate import replay
from budgetcore.tune.choice import Constraints
from budgetcore.tune.result import tune
from tests.helpers import assert_clean, run_cli
from tests.timing_oracle import oracle_timed_replay
from tests.timing_oracle_helpers import SCENARIO

PRICES = {"input": "1", "output": "2"}  # per token: easy arithmetic


def _options(retries: dict[str, Any], timing: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"retries": retries, "summary_prices": PRICES, "main_prices": PRICES}
    if timing is not None:
        out["timing"] = timing
    return out


def _all_three(opts: dict[str, Any], n: int, gap_ms: int | None = None) -> dict[str, Any]:
    """The replay's summary as JSON, after checking the tune point and the oracle agree."""
    turn_dicts = [{"added": 500} if gap_ms is None else {"added": 500, "gap_ms": gap_ms}] * n
    turns = [Turn(**t) for t in turn_dicts]
    scenario = parse_scenario(SCENARIO)
    options = parse_options_json(json.dumps(opts))
    got = replay(scenario, turns, options)
    summary = json.loads(json.dumps(got.summary.as_dict()))
    _, want = oracle_timed_replay(SCENARIO, turn_dicts, opts)
    for key in ("summary_input_tokens", "summary_output_tokens", "summary_tokens"):
        assert summary[key] == want[key], key
    for key in ("discarded_tokens", "retry_tokens"):
        assert summary[key] == want[key], key
    assert Decimal(summary["summary_cost"]) == Decimal(want["summary_cost"].numerator) / (
        want["summary_cost"].denominator
    )
    cfg = scenario.config
    grid = tune(
        scenario, [("s", turns)], options, ks=[cfg.trigger_tokens], ss=[cfg.summary_max_tokens]
    ).grid
    columns = grid.columns
    assert columns["discarded_tokens"][0] == summary["discarded_tokens"]
    assert columns["retry_tokens"][0] == summary["retry_tokens"]
    return summary


ALWAYS_FAILS = {"failure_rate": "1", "max_resends": 2}
# random.Random(7) at p = 0.5: fail, fail, pass (tests/test_timing_oracle.py)
FAIL_FAIL_PASS = {"failure_rate": "0.5", "failure_seed": 7, "max_resends": 2}


@pytest.mark.parametrize(
    ("retries", "bill", "want"),
    [
        # Each try reads 500 of raw and writes 500 (min(S, what it read), docs/spec.md §12).
        # Three tries, all failed. Billed: 3 x 600 in; the output 3 x 500 or none.
        # Cost at 1 and 2 a token: 1,800 + 3,000 or 1,800. Resends: tries 2 and 3.
        (ALWAYS_FAILS, True, (1_800, 1_500, 4_800, 2 * 1_100)),
        (ALWAYS_FAILS, False, (1_800, 0, 1_800, 2 * 600)),
        # Fail, fail, pass: 3 x 600 in; the output 3 x 500, or the passing try's 500
        # alone. Resends: tries 2 and 3, the third one's output billed.
        (FAIL_FAIL_PASS, True, (1_800, 1_500, 4_800, 2 * 1_100)),
        (FAIL_FAIL_PASS, False, (1_800, 500, 2_800, 2 * 600 + 500)),
        # One passing try: the option changes nothing.
        ({"failure_rate": "0"}, False, (600, 500, 1_600, 0)),
    ],
)
def test_failed_tries_may_bill_no_output(
    retries: dict[str, Any], bill: bool, want: tuple[int, int, int, int]
) -> None:
    summary = _all_three(_options({**retries, "bill_failed_output": bill}), 1)
    got = (
        summary["summary_input_tokens"],
        summary["summary_output_tokens"],
        Decimal(summary["summary_cost"]),
        summary["retry_tokens"],
    )
    assert got == want


def test_a_discarded_run_bills_only_its_passing_output() -> None:
    # Fail, fail, pass at 10 s a try: the run ends at 30 s; turn 2 appends at 25 s, so
    # it is discarded. Wasted: 3 x 600 in, and 3 x 500 or the passing 500 out (each try
    # read 500 of raw: min(S, what it read)).
    timing = {"gap_ms": 25_000, "duration": {"fixed_s": "10"}}
    billed = _all_three(_options(FAIL_FAIL_PASS, timing), 2, 25_000)
    free = _all_three(_options({**FAIL_FAIL_PASS, "bill_failed_output": False}, timing), 2, 25_000)
    assert billed["discarded_tokens"] == 3 * 1_100
    assert free["discarded_tokens"] == 3 * 600 + 500
    assert free["retry_tokens"] == 2 * 600 + 500


def test_bill_failed_output_is_checked_on_every_path() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_options_json('{"retries": {"failure_rate": "0.1", "bill_failed_output": "no"}}')
    assert info.value.one_line() == (
        'options.retries.bill_failed_output must be true or false, got "no"'
    )
    with pytest.raises(ScenarioError, match="bill_failed_output"):
        Retries(failure_rate=Decimal(0), bill_failed_output="no")  # type: ignore[arg-type]
    parsed = parse_options_json('{"retries": {"failure_rate": "0.1"}}')
    assert parsed.retries is not None
    assert parsed.retries.bill_failed_output is True  # the contract's, by default
    assert ReplayOptions(retries=parsed.retries).retries == parsed.retries


def test_the_pages_form_gives_bill_failed_output_to_the_replay() -> None:
    """The page's box is the options file's key: unticked, a failed try bills no output."""
    from tests.helpers import page_replay as _run  # noqa: PLC0415
    from tests.helpers import timed_page as _timed  # noqa: PLC0415

    fields = {"format_failure_rate": "0.5", "format_failure_seed": "3", "max_resends": "2"}
    billed = _run(_timed(**fields))
    free = _run(_timed(bill_failed_output="false", **fields))
    assert billed.options.retries is not None
    assert billed.options.retries.bill_failed_output is True
    assert free.options.retries is not None
    assert free.options.retries.bill_failed_output is False
    assert free.summary.failed + billed.summary.tries > 0
    # the same draws and fates; only the failed tries' output differs
    assert [r.run_fate for r in free.rows] == [r.run_fate for r in billed.rows]
    failed = sum(r.run_tries - r.run_unknown_tries for r in billed.rows) - sum(
        1 for r in billed.rows if r.run_fate in ("published", "discarded")
    )
    assert failed > 0
    pairs = zip(billed.rows, free.rows, strict=True)
    assert all(r.summary_input_billed == f.summary_input_billed for r, f in pairs)
    assert sum(r.summary_output_billed for r in free.rows) < sum(
        r.summary_output_billed for r in billed.rows
    )
    # the page's choice of appends is the options file's timing.appends
    chosen = _run(_timed(appends="conversation", **fields)).options.timing
    assert chosen is not None
    assert chosen.appends == "conversation"


# ------------------------------------------------------------ appends: conversation only

TIMED = Path(__file__).parent / "fixtures" / "logs" / "timed"
# A line that is not conversation inside run 2 (30 s to 50 s at 20 s a try): a Claude
# Code system line without a uuid (it takes no place in the tree), a Codex event.
NOT_TALK = {
    "claude-timed.jsonl": '{"type":"system","subtype":"informational",'
    '"timestamp":"2026-03-01T09:00:40.000Z","content":"x"}',
    "codex-timed.jsonl": '{"timestamp":"2026-03-01T09:00:40.000Z","type":"event_msg",'
    '"payload":{"type":"agent_reasoning","text":"x"}}',
}


def _with_line(name: str) -> bytes:
    lines = (TIMED / name).read_text("utf-8").splitlines()
    # after the line of 09:00:30 (turn 2's reply), before 09:01:30
    at = next(i for i, line in enumerate(lines) if "09:00:30" in line) + 1
    return ("\n".join([*lines[:at], NOT_TALK[name], *lines[at:]]) + "\n").encode()


@pytest.mark.parametrize("pure", [False, True])
@pytest.mark.parametrize("name", sorted(NOT_TALK))
def test_appends_may_be_the_conversation_lines_only(
    name: str, pure: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """§15: "any later timestamped line of the same series is an append". Run 1 (2 s to
    22 s) meets the tool result at 7 s, a conversation line: discarded either way. Run 2
    (30 s to 50 s) meets only the line at 40 s, which is not conversation: discarded
    with every line, published with conversation lines only. Run 3 publishes."""
    if pure:
        monkeypatch.setenv("BUDGETCORE_PURE_PYTHON", "1")
    log = read_session([(name, _with_line(name))])
    scenario = parse_scenario({"config": {"trigger_tokens": 0}})
    fates = {}
    for appends in ("any", "conversation"):
        text = json.dumps({"timing": {"duration": {"fixed_s": "20"}, "appends": appends}})
        options = parse_options_json(text)
        assert options.timing is not None
        turns = log.main.turns(timed=True, appends=options.timing.appends)
        fates[appends] = [r.run_fate for r in replay(scenario, turns, options).rows]
    assert fates == {
        "any": ["discarded", "discarded", "published"],
        "conversation": ["discarded", "published", "published"],
    }


def test_conversation_appends_of_a_log_that_cannot_tell_are_refused() -> None:
    series = LogSeries("main", (), (), (), (1, 2), None)
    with pytest.raises(ScenarioError) as info:
        series.turns(timed=True, appends="conversation")
    assert info.value.problems[0].code == "log-no-conversation-lines"
    with pytest.raises(ScenarioError) as info:
        parse_options_json('{"timing": {"duration": {"fixed_s": "1"}, "appends": "user"}}')
    assert info.value.one_line() == (
        'options.timing.appends must be one of any, conversation, got "user"'
    )


def test_the_cli_reads_appends_from_the_options_file(tmp_path: Path) -> None:
    log = tmp_path / "s.jsonl"
    log.write_bytes(_with_line("claude-timed.jsonl"))
    fates = {}
    for appends in ("any", "conversation"):
        options = tmp_path / f"{appends}.json"
        options.write_text(
            json.dumps({"timing": {"duration": {"fixed_s": "20"}, "appends": appends}})
        )
        scenario = tmp_path / "k0.json"
        scenario.write_text('{"config": {"trigger_tokens": 0}}')
        r = run_cli(
            [
                "replay",
                str(scenario),
                "--log",
                str(log),
                "--options",
                str(options),
                "--format",
                "jsonl",
            ]
        )
        assert r.code == 0, r.err
        rows = [json.loads(x) for x in r.out.splitlines()]
        fates[appends] = [x["run_fate"] for x in rows if "run_fate" in x]
    assert fates["any"] != fates["conversation"]


# ------------------------------------------------------------------ names and units


def test_the_old_name_of_the_retries_seed_is_refused_naming_the_new_one(tmp_path: Path) -> None:
    """Three spellings of a seed (issue 41): every seed is now named for its draw,
    failure_seed beside a failure_rate, gap_seed beside gap_ms; the old retries.seed
    is refused by code, naming the new name, never read as it was nor ignored."""
    with pytest.raises(ScenarioError) as info:
        parse_options_json('{"retries": {"failure_rate": "0.5", "seed": 7}}')
    (problem,) = info.value.problems
    assert problem.code == "renamed"
    assert info.value.one_line() == (
        "options.retries.seed is renamed: give options.retries.failure_seed"
        " (docs/cli.md, Names and units)"
    )
    parsed = parse_options_json('{"retries": {"failure_rate": "0.5", "failure_seed": 7}}')
    assert parsed.retries == Retries(failure_rate=Decimal("0.5"), failure_seed=7)
    options = tmp_path / "old.json"
    options.write_text('{"retries": {"failure_rate": "0.5", "seed": 7}}')
    r = run_cli(
        ["replay", "--fragment", "", "--generate", '{"turns": 3}', "--options", str(options)]
    )
    assert r.code == 2
    assert "options.retries.failure_seed" in r.err
    assert "Traceback" not in r.err


def test_outputs_use_only_the_new_names_and_units(tmp_path: Path) -> None:
    """Issue 41's drift list: a run's end in whole ms (never a fraction string of
    seconds), the replay's names in a tune point, no old name in any output."""
    options = tmp_path / "timed.json"
    options.write_text(
        json.dumps(
            {
                "timing": {
                    "gap_ms": 7_000,
                    "duration": {"prefill_tokens_per_s": "33.3", "decode_tokens_per_s": "7"},
                },
                "retries": {"failure_rate": "0.3", "failure_seed": 4},
            }
        )
    )
    gen = '{"turns": 40, "seed": 2, "added": 6000}'
    args = [
        "--fragment",
        "config.trigger_tokens=8000",
        "--generate",
        gen,
        "--options",
        str(options),
    ]
    old = ("run_end_s", "unknown_usage", '"seed"', "retry_seed")
    for fmt in ("jsonl", "csv"):
        r = run_cli(["replay", *args, "--format", fmt])
        assert r.code == 0, r.err
        assert not any(name in r.out for name in old), fmt
        assert "run_end_ms" in r.out
    rows = [json.loads(x) for x in run_cli(["replay", *args, "--format", "jsonl"]).out.splitlines()]
    ends = [x["run_end_ms"] for x in rows[:-1] if x["run_end_ms"] is not None]
    assert ends
    assert all(isinstance(e, int) for e in ends)
    # a rate of 33.3 tokens a second makes durations of no whole millisecond
    summary = rows[-1]["summary"]
    for fmt in ("jsonl", "csv"):
        t = run_cli(["tune", *args, "--k", "8000,20000", "--s", "4096", "--format", fmt])
        assert t.code == 0, t.err
        assert not any(name in t.out for name in old), fmt
        for name in ("candidates", "summary_tokens", "unknown_tries"):
            assert name in t.out, (fmt, name)
    point = json.loads(run_cli(["tune", *args, "--k", "8000", "--s", "4096"]).out.splitlines()[0])
    assert point["candidates"] == point["published"] + point["discarded"]
    assert set(summary) >= {"candidates", "summary_tokens", "unknown_tries"}


def test_the_pages_form_has_every_section_15_option_by_its_file_name() -> None:
    """Each §15 option is a field of the page's timing part, read by the CLI's own
    parse function: breaker_failures, round_up_ms (empty: exact), run_from, appends,
    bill_failed_output."""
    from budgetcore.ui.form import IssueError  # noqa: PLC0415
    from budgetcore.ui.replay.fields import parse_field_text  # noqa: PLC0415
    from tests.helpers import page_replay as _run  # noqa: PLC0415
    from tests.helpers import timed_page as _timed  # noqa: PLC0415

    default = _run(_timed()).options
    assert default.timing is not None
    assert default.retries is not None
    assert default.timing.duration.round_up_ms is None  # exact unless asked
    assert (default.timing.run_from, default.retries.breaker_failures) == ("reply", 3)
    chosen = _run(
        _timed(breaker_failures="5", round_up_ms="1,000", run_from="turn", policy="breaker")
    ).options
    assert chosen.timing is not None
    assert chosen.retries is not None
    assert chosen.timing.duration.round_up_ms == 1_000
    assert chosen.timing.run_from == "turn"
    assert chosen.retries.breaker_failures == 5
    with pytest.raises(IssueError) as info:
        parse_field_text("replay.breaker_failures", "0")
    # the CLI's own code for options.retries.breaker_failures = 0, by the page's field
    assert (info.value.issue.code, info.value.issue.paths) == (
        "core.whole",
        ("replay.breaker_failures",),
    )
    with pytest.raises(IssueError) as info:
        parse_field_text("replay.round_up_ms", "3,600,001")
    # a field that may be empty says so as it refuses (the eighth walk)
    assert info.value.issue.code == "core.whole-or-empty"
    assert parse_field_text("replay.round_up_ms", "") is None


GEN = '{"turns": 3, "added": 1000}'
SC = parse_scenario({})


# ------------------------------------------------------------------ §15's two decisions


def _mixed_fates() -> Any:
    """One run of each fate that matters: published, discarded, abandoned (spec §15).
    Rates 2,000 / 1,000 tokens a second: a run of summary input I writing W tokens
    (min(S, what it read), S = 8,192) takes I / 2000 + W / 1000 s; the model timeout
    (30 s) cuts the last run's try (70,000 input: 35 s before it writes)."""
    scenario = parse_scenario({"config": {"trigger_tokens": 1000}})
    plan = [(5_000, 60_000), (5_000, 5_000), (5_000, 60_000), (60_000, 60_000)]
    turns = [Turn(added=a, gap_ms=g) for a, g in plan]
    rates = Duration(prefill_tokens_per_s=Decimal(2000), decode_tokens_per_s=Decimal(1000))
    return replay(scenario, turns, ReplayOptions(timing=Timing(duration=rates)))


def test_the_publish_rate_divides_by_candidates_not_runs_started() -> None:
    """docs/spec.md §15: published / (published + discarded); abandoned is apart."""
    r = _mixed_fates()
    fates = [row.run_fate for row in r.rows]
    assert fates == ["published", "discarded", None, "abandoned"]
    # turn 1 reads 5,000 of raw and writes 5,000: 6,000 / 2,000 + 5,000 / 1,000 = 8 s
    # < 60 s to the next turn: published
    assert r.rows[0].run_end_ms == 8_000
    s = r.summary
    assert (s.published, s.discarded, s.abandoned, s.failed) == (1, 1, 1, 0)
    assert s.candidates == 2
    assert s.publish_rate == Fraction(1, 2)  # not 1/3: the abandoned run wrote nothing


def test_a_total_with_a_cut_try_is_null_and_the_others_stay_numbers() -> None:
    """docs/spec.md §15: never a number with an "incomplete" flag."""
    s = _mixed_fates().summary
    assert s.unknown_tries == 1
    assert s.summary_tokens is None
    assert s.summary_input_tokens is None
    # the discarded run's one try: 1,000 + 5,000 + 5,000 = 11,000 input (instructions,
    # the 5,000-token summary, 5,000 of new raw) + 8,192 written, known
    assert s.discarded_tokens == 11_000 + 8_192
    row = json.loads(json.dumps(s.as_dict()))
    assert row["summary_tokens"] is None
    assert row["discarded_tokens"] == 19_192


# ------------------------------------------------------------------ §15's options


def _replay_and_point(opts: ReplayOptions, turns: list[Turn]) -> tuple[Any, Any]:
    """The replay and the tune grid's point at the scenario's own K and S: the two
    kernels (replay.simulate and replay.clock) must agree on every §15 option."""
    scenario = parse_scenario({"config": {"trigger_tokens": 1000}})
    result = replay(scenario, turns, opts)
    cfg = scenario.config
    grid = tune(
        scenario, [("s", turns)], opts, ks=[cfg.trigger_tokens], ss=[cfg.summary_max_tokens]
    ).grid
    return result.summary, grid


@pytest.mark.parametrize(("threshold", "runs_before_open"), [(1, 1), (2, 2), (3, 3), (5, 5)])
def test_a_breaker_threshold_other_than_3(threshold: int, runs_before_open: int) -> None:
    """Every try fails: the breaker opens after ``threshold`` failed runs in a row."""
    retries = Retries(failure_rate=Decimal(1), policy="breaker", breaker_failures=threshold)
    turns = [Turn(added=5_000)] * 8
    summary, grid = _replay_and_point(ReplayOptions(retries=retries), turns)
    assert summary.failed == runs_before_open
    assert summary.breaker_open_turns == 8 - runs_before_open
    assert grid.columns["failed"][0] == summary.failed
    assert grid.columns["breaker_open_turns"][0] == summary.breaker_open_turns
    parsed = parse_options_json('{"retries": {"failure_rate": "1", "policy": "breaker"}}')
    assert parsed.retries is not None
    assert parsed.retries.breaker_failures == 3  # the contract's, by default


def test_durations_rounded_up_only_when_asked() -> None:
    exact = Duration(fixed_s=Decimal("20.3"))
    rounded = Duration(fixed_s=Decimal("20.3"), round_up_ms=1000)
    assert exact.seconds(0, 0) == Fraction(203, 10)
    assert rounded.seconds(0, 0) == 21
    rates = Duration(
        prefill_tokens_per_s=Decimal(3000), decode_tokens_per_s=Decimal(70), round_up_ms=250
    )
    # 10,000 / 3,000 + 700 / 70 = 13.333… s, up to the next quarter second: 13.5 s
    assert rates.seconds(10_000, 700) == Fraction(27, 2)
    turns = [Turn(added=5_000, gap_ms=g) for g in (20_500, 20_500, 30_000, 21_000)]
    for duration, published in ((exact, 4), (rounded, 2)):
        opts = ReplayOptions(timing=Timing(duration=duration))
        summary, grid = _replay_and_point(opts, turns)
        # a run of 20.3 s publishes before an append 20.5 s later; of 21 s it does not
        assert summary.published == published, duration
        assert grid.columns["published"][0] == published


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            '{"retries": {"failure_rate": "0.1", "breaker_failures": 0}}',
            "options.retries.breaker_failures must be an integer from 1 to 100, got 0",
        ),
        (
            '{"timing": {"gap_ms": 5, "duration": {"fixed_s": "1", "round_up_ms": 0}}}',
            "options.timing.duration.round_up_ms must be an integer from 1 to 3,600,000, got 0",
        ),
    ],
)
def test_the_new_options_are_checked(options: str, message: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_options_json(options)
    assert info.value.one_line() == message


def test_tune_can_allow_at_most_n_rejected_turns() -> None:
    """Tune's constraints could not say "at most N rejected turns"."""
    # Two turns require more than M (936,345 for the default scenario): rejected at
    # every point, so a limit of 2 allows every point and a limit of 1 none.
    turns = [Turn(added=5_000)] * 4 + [Turn(added=5_000, required=1_000_000)] * 2
    kwargs: dict[str, Any] = {"ks": [8_000, 30_000], "ss": [1_024]}
    grid = tune(SC, [("s", turns)], **kwargs).grid
    assert grid.columns["rejected"] == (2, 2)

    def chosen(constraints: Constraints) -> bool:
        return tune(SC, [("s", turns)], constraints=constraints, **kwargs).choice is not None

    assert chosen(Constraints(max_rejected=2))
    assert not chosen(Constraints(max_rejected=1))
    assert not chosen(Constraints(max_rejected=0))
    assert not chosen(Constraints(no_rejected=True))  # the same as max_rejected=0
    assert Constraints(max_rejected=1).broken(grid, 0) == ("max_rejected",)
    r = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--max-rejected", "0"])
    assert_clean(r, (0,))
    assert '"max_rejected": 0' in r.out


def test_a_logs_run_may_start_at_the_turns_start() -> None:
    """§15: the run starts at the reply's line; a runtime that starts it with the
    request is the option timing.run_from = "turn"."""
    turns = [
        Turn(added=5_000, time_ms=0, reply_end_ms=15_000),
        Turn(added=5_000, time_ms=20_000, reply_end_ms=21_000),
        Turn(added=5_000, time_ms=60_000, reply_end_ms=61_000),
    ]
    ten = Duration(fixed_s=Decimal(10))
    fates = {}
    for run_from in ("reply", "turn"):
        opts = ReplayOptions(timing=Timing(duration=ten, run_from=run_from))  # type: ignore[arg-type]
        summary, grid = _replay_and_point(opts, turns)
        fates[run_from] = (summary.published, summary.discarded)
        assert (grid.columns["published"][0], grid.columns["discarded"][0]) == fates[run_from]
    # from the reply: 15 s to 25 s, turn 2 starts at 20 s inside it: discarded; turn 3
    # publishes (61 s to 71 s). From the turn: 0 s to 10 s publishes before the reply's
    # line at 15 s; turns 2 and 3 start runs that their own reply lines (1 s later,
    # appends too) discard.
    assert fates == {"reply": (1, 1), "turn": (1, 2)}
    parsed = parse_options_json('{"timing": {"duration": {"fixed_s": "10"}, "run_from": "turn"}}')
    assert parsed.timing is not None
    assert parsed.timing.run_from == "turn"
    with pytest.raises(ScenarioError, match=r"options\.timing\.run_from must be one of"):
        parse_options_json('{"timing": {"duration": {"fixed_s": "10"}, "run_from": "end"}}')


def test_tune_points_leave_out_the_clocks_measures_without_a_clock(tmp_path: Path) -> None:
    """Drift list: tune points printed "published: 0" with no clock, where every run
    lands; the replay's summary leaves §15's keys out then, and so does a point now."""
    plain = run_cli(["tune", "--fragment", "", "--generate", GEN, "--k", "8000", "--s", "1024"])
    assert_clean(plain, (0,))
    point = json.loads(plain.out.splitlines()[0])
    assert point["runs"] > 0
    assert "published" not in point
    assert "tries" not in point
    options = tmp_path / "timed.json"
    options.write_text('{"timing": {"gap_ms": 60000, "duration": {"fixed_s": "1"}}}', "utf-8")
    timed = run_cli(
        ["tune", "--fragment", "", "--generate", GEN, "--options", str(options), "--k", "8000"]
    )
    assert_clean(timed, (0,))
    point = json.loads(timed.out.splitlines()[0])
    assert point["published"] == point["runs"]
