"""Sanity of the what-if (docs/spec.md §17, "What if"; docs/replay.md, "What if") on
generated main series: it is a delta from the as-run model, so a what-if whose K no
request reaches sends the very requests the as-run model sends and costs the same, and
its quality figures follow the runs it made."""

from __future__ import annotations

import dataclasses

from hypothesis import assume, event, given
from hypothesis import strategies as st

from budgetcore.core.scenario import Config
from budgetcore.errors import ScenarioError
from budgetcore.replay.asrun import as_run
from budgetcore.replay.logs.model import LogRequest, LogSeries, ParsedLog
from budgetcore.replay.logs.session import log_model
from budgetcore.replay.simulate import replay
from budgetcore.replay.whatif import log_replay_inputs, what_if, what_if_direct

MODELS = {"claude-code": "claude-sonnet-4-5-20250929", "codex": "gpt-5-codex"}
T0 = 1_760_000_000_000
# Around 5 minutes, OpenAI's assumed 10 and an hour: the gap rule applies alike on both
# sides, so no gap may open a difference.
GAPS = st.sampled_from([1_000, 299_999, 300_001, 600_001, 3_600_001])


@st.composite
def growing_log(draw: st.DrawFn) -> ParsedLog:
    """A main series whose context only grows (the engine's growth is never negative:
    a context that shrinks without a compaction stays larger in the what-if), with no
    compaction, at gaps on both sides of the cache lifetimes, maybe with abandoned
    requests; and maybe a subagent, which is the as-run model's on both sides."""
    fmt = draw(st.sampled_from(sorted(MODELS)))
    model = MODELS[fmt]
    n = draw(st.integers(1, 8))
    context = draw(st.integers(2_000, 30_000))
    prefix = draw(st.integers(0, context))
    t = T0
    reqs = []
    for i in range(n):
        if i:
            context += draw(st.integers(0, 12_000))
            t += draw(GAPS)
        read = prefix if i == 0 else draw(st.integers(0, context))
        write = 0 if fmt == "codex" else draw(st.integers(0, context - read))
        reqs.append(
            LogRequest(
                line=i + 1,
                context=context,
                output=draw(st.integers(0, 4_000)),
                cache_read=read,
                cache_write=write,
                model=model,
                input=context - read - write,
                started=t,
                finished=t + 700,
            )
        )
    # Abandoned requests (a rewind), anywhere in time, the first one sent included:
    # the as-run model's on both sides, and in the cache sequence on both sides.
    abandoned = []
    for j in range(draw(st.integers(0, 2))):
        at = draw(st.sampled_from([r.started for r in reqs])) + draw(st.sampled_from([-1, 1]))
        c = draw(st.integers(0, 40_000))
        abandoned.append(
            LogRequest(
                line=100 + j,
                context=c,
                output=5,
                cache_read=c // 2,
                cache_write=c - c // 2,
                model=model,
                input=0,
                started=at,
                finished=at + 100,
            )
        )
    series = [LogSeries("main", tuple(reqs), (), abandoned=tuple(abandoned))]
    if fmt == "claude-code" and draw(st.booleans()):
        sub = LogRequest(
            line=1,
            context=9_000,
            output=10,
            cache_read=0,
            cache_write=9_000,
            model=model,
            input=0,
            started=T0,
            finished=T0 + 1,
            file=1,
        )
        series.append(LogSeries("sidechain:s1", (sub,), ()))
    return ParsedLog(
        format=fmt,
        series=tuple(series),
        skipped=(),
        duplicates=0,
        window=258_400 if fmt == "codex" else None,
    )


def run_what_if(log: ParsedLog, k: int, s: int):  # type: ignore[no-untyped-def]
    backtest = as_run(log)
    model = log_model(log, window=backtest.window)
    scenario = dataclasses.replace(
        model.scenario, config=Config(trigger_tokens=k, summary_max_tokens=s)
    )
    turns, opts = log_replay_inputs(log, backtest, log.main.turns(), None)
    try:
        result = replay(scenario, turns, opts)
    except ScenarioError:
        assume(False)  # K and S the scenario rules out (spec §5): not a what-if
        raise
    return backtest, result, what_if(log, backtest, scenario, result)


@given(growing_log(), st.integers(1_024, 16_384))
def test_a_k_no_request_reaches_costs_what_the_as_run_model_costs(log: ParsedLog, s: int) -> None:
    peak = max(r.context + r.output for r in log.main.requests)
    backtest, result, w = run_what_if(log, max(peak + 1, 32_000), s)
    assert result.summary.runs == 0
    assert w.summary_calls == 0
    assert w.generations == 0
    assert w.compression is None
    assert w.rejected == 0
    assert w.as_run_cost == backtest.modelled_cost
    assert w.modelled_cost == backtest.modelled_cost
    assert all(v == 0 for v in w.delta.values()), w.delta


@given(growing_log(), st.integers(4_000, 60_000), st.integers(1_024, 16_384))
def test_generations_count_the_published_runs(log: ParsedLog, k: int, s: int) -> None:
    backtest, result, w = run_what_if(log, k, s)
    event(f"runs: {min(result.summary.runs, 3)}")
    published = result.summary.runs + result.summary.recompresses
    assert w.generations == published
    assert w.summary_calls >= published
    # docs/spec.md §12: a run writes at most what it read, so no run compresses below 1:1.
    assert (w.compression is None) == (published == 0)
    assert w.compression is None or w.compression >= 1
    # The delta is itemised: the kinds and the summary calls add up to the total.
    parts = [v for key, v in w.delta.items() if key != "total"]
    if None not in parts and w.delta["total"] is not None:
        assert sum(parts) == w.delta["total"]
        assert w.modelled_cost == backtest.modelled_cost + w.delta["total"]


@given(growing_log(), st.integers(4_000, 60_000), st.integers(1_024, 16_384))
def test_the_direct_what_if_is_the_replay_s(log: ParsedLog, k: int, s: int) -> None:
    """``what_if_direct`` (no rows, no turn objects: docs/performance.md) gives the
    what-if of the replay, field for field."""
    backtest, _result, w = run_what_if(log, k, s)
    scenario = dataclasses.replace(
        log_model(log, window=backtest.window).scenario,
        config=Config(trigger_tokens=k, summary_max_tokens=s),
    )
    assert what_if_direct(log, backtest, scenario) == w
