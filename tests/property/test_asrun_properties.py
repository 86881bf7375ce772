"""The as-run backtest (docs/replay.md, "As run: the backtest") against the independent
oracle of tests/asrun_oracle.py, over generated sessions: several series and models,
gaps on both sides of the cache lifetimes, compactions with and without preTokens,
abandoned requests, contexts above the 200,000-token tier, an unknown model (its cost
None), requests another session bills (left out on both sides)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from budgetcore.replay.asrun import as_run, in_order
from budgetcore.replay.logs.compaction import LogCompaction
from budgetcore.replay.logs.model import LogRequest, LogSeries, ParsedLog
from budgetcore.replay.prompt_cache import (
    cache_lifetime,
    cache_model,
    cache_restarts,
    cleared_in_order,
    modelled_split,
    notified_in_order,
    prefix_restarts,
    resumed_in_order,
)
from budgetcore.runtimes.caches import ANTHROPIC_CACHE, OPENAI_CACHE
from tests.asrun_oracle import (
    ANTHROPIC,
    OPENAI,
    oracle_cleared,
    oracle_notified,
    oracle_one_hour,
    oracle_order,
    oracle_predicted,
    oracle_restarts,
    oracle_resumed,
    oracle_series,
    oracle_split,
)

#: The first two are drawn most, the third (no price) seldom; the rest (step 4's models
#: that keep thinking blocks) with the first two.
CLAUDE_MODELS = (
    "claude-sonnet-4-20250514",
    "claude-haiku-4-5",
    "mystery-model-x",
    "claude-opus-4-5",
    "claude-opus-4-6",
)
CODEX_MODELS = ("gpt-5-codex", "gpt-5", "mystery-model-x")
# Gaps between requests, ms: around 5 minutes, 10 minutes (OpenAI's assumed idle
# lifetime) and an hour, on both sides and exactly on them.
GAPS = st.sampled_from(
    [0, 1_000, 299_999, 300_000, 300_001, 599_999, 600_000, 600_001, 3_600_000, 3_600_001]
)
T0 = 1_760_000_000_000


@st.composite
def a_request(draw: st.DrawFn, models: tuple[str, ...], line: int, file: int, t: int | None):
    context = draw(st.one_of(st.integers(0, 3_000), st.integers(0, 260_000)))
    read = draw(st.integers(0, context))
    write = draw(st.integers(0, context - read))
    write_1h = draw(st.sampled_from([0, write, write // 2]))
    output = draw(st.integers(0, 40_000))
    return LogRequest(
        line=line,
        context=context,
        output=output,
        # A response that reasoned, or not (OpenAI's step 4 keys on it).
        reasoning=draw(st.sampled_from([0, output // 3])),
        cache_read=read,
        cache_write=write,
        model=draw(
            st.sampled_from(models[:2] + models[3:])
            if draw(st.integers(0, 9))
            else st.just(models[2])
        ),
        input=context - read - write,
        cache_write_1h=write_1h,
        started=t,
        finished=None if t is None else t + 500,
        file=file,
        # When it was sent, where the log says (Claude Code): up to just past a
        # lifetime before its first line (a long first block), or not said.
        sent=None
        if t is None or draw(st.booleans())
        else t - draw(st.sampled_from([0, 1, 4_000, 200_000, 300_001])),
    )


@st.composite
def a_series(draw: st.DrawFn, name: str, models: tuple[str, ...], file: int) -> LogSeries:
    n = draw(st.integers(1, 9))
    timed = draw(st.integers(0, 9)) > 0
    t = T0
    line = 1
    branch: list[LogRequest] = []
    abandoned: list[LogRequest] = []
    for _ in range(n):
        t += draw(GAPS)
        line += draw(st.integers(1, 3))
        req = draw(a_request(models, line, file, t if timed else None))
        (abandoned if draw(st.integers(0, 6)) == 0 else branch).append(req)
    if not branch:
        branch, abandoned = abandoned[:1], abandoned[1:]
    comps = []
    for after in sorted(draw(st.lists(st.integers(0, len(branch)), max_size=3))):
        pre = draw(st.one_of(st.none(), st.integers(0, 260_000)))
        trig = draw(st.sampled_from(["auto", "manual", None]))
        comps.append(
            LogCompaction(
                line=0, after_turn=after, trigger=trig, pre_tokens=pre, post_tokens=None, file=file
            )
        )
    # The runtime's own count (Codex: total tokens plus the reasoning it carries, never
    # below them), for every request or none.
    counts: tuple[int, ...] = ()
    if draw(st.booleans()):
        counts = tuple(r.context + r.output + draw(st.integers(0, 60_000)) for r in branch)
    # Requests sent after a background task's notification, runs of them included.
    notified = tuple(sorted(set(draw(st.lists(st.integers(0, len(branch) - 1), max_size=4)))))
    # Requests sent right after Claude Code cleared old tool results (step 3).
    cleared = tuple(sorted(set(draw(st.lists(st.integers(0, len(branch) - 1), max_size=3)))))
    # Requests sent right after a new Claude Code process resumed the session (step 3).
    resumed = tuple(sorted(set(draw(st.lists(st.integers(0, len(branch) - 1), max_size=3)))))
    # Claude Code's user turns and thinking responses (step 4), and the messages on the
    # branch before each request (the lookback's count), growing along it.
    prompted = tuple(sorted(set(draw(st.lists(st.integers(0, len(branch) - 1), max_size=5)))))
    thinking = tuple(sorted(set(draw(st.lists(st.integers(0, len(branch) - 1), max_size=8)))))
    seen = 0
    for k, r in enumerate(branch):
        seen += draw(st.integers(1, 9))
        branch[k] = r._replace(messages=seen)
    return LogSeries(
        name=name,
        requests=tuple(branch),
        compactions=tuple(comps),
        abandoned=tuple(abandoned),
        counts=counts,
        notified=notified,
        cleared=cleared,
        resumed=resumed,
        prompted=prompted,
        thinking=thinking,
    )


@st.composite
def a_log(draw: st.DrawFn) -> tuple[ParsedLog, frozenset[tuple[int, int]]]:
    fmt = draw(st.sampled_from(["claude-code", "codex"]))
    models = CLAUDE_MODELS if fmt == "claude-code" else CODEX_MODELS
    names = ["main"]
    if fmt == "claude-code":
        names += draw(
            st.lists(
                st.sampled_from(["sidechain:a1", "sidechain:acompact-9f"]), max_size=2, unique=True
            )
        )
    series = tuple(draw(a_series(name, models, i)) for i, name in enumerate(names))
    window = None if fmt == "claude-code" else draw(st.sampled_from([258_400, 272_000, 400_000]))
    log = ParsedLog(
        format=fmt,
        series=series,
        skipped=(),
        duplicates=0,
        window=window,
        files=tuple(f"f{i}.jsonl" for i in range(len(series))),
    )
    every = [(r.file, r.line) for s in series for r in (*s.requests, *s.abandoned)]
    exclude = frozenset(draw(st.lists(st.sampled_from(every), max_size=2)))
    return log, exclude


@given(a_log())
def test_as_run_agrees_with_the_oracle(case: tuple[ParsedLog, frozenset[tuple[int, int]]]) -> None:
    log, exclude = case
    result = as_run(log, exclude=exclude)
    rules = ANTHROPIC if log.format == "claude-code" else OPENAI
    assert len(result.series) == len(log.series)
    excluded = 0
    for got, s in zip(result.series, log.series, strict=True):
        want = oracle_series(
            s, rules, summary_call=s.name.startswith("sidechain:acompact-"), exclude=exclude
        )
        assert got.name == want.name
        assert got.measured.requests == want.requests
        assert got.measured.usage == want.measured, s.name
        assert got.modelled.usage == want.modelled, s.name
        assert got.measured.cost == want.measured_cost, s.name
        assert got.modelled.cost == want.modelled_cost, s.name
        assert sorted(got.cache_errors) == sorted(want.cache_errors), s.name
        if not got.billed_as_logged:
            assert got.one_hour == want.one_hour
        excluded += len(s.requests) + len(s.abandoned) - want.requests
    assert result.excluded == excluded
    main = log.main
    assert result.logged_compactions == tuple(
        c.after_turn for c in main.compactions if c.trigger != "manual"
    )
    assert result.manual_compactions == tuple(
        c.after_turn for c in main.compactions if c.trigger == "manual"
    )
    assert result.trigger is not None
    assert result.predicted_compactions == oracle_predicted(main, result.trigger)


@given(a_log())
def test_modelled_split_agrees_with_the_oracle(
    case: tuple[ParsedLog, frozenset[tuple[int, int]]],
) -> None:
    log, _ = case
    provider = ANTHROPIC_CACHE if log.format == "claude-code" else OPENAI_CACHE
    rules = ANTHROPIC if log.format == "claude-code" else OPENAI
    for s in log.series:
        reqs, after = in_order(s)
        want_reqs, want_after = oracle_order(s)
        assert reqs == want_reqs
        assert set(after) == want_after
        one_hour = oracle_one_hour(reqs)
        notified = prefix_restarts(s, reqs)
        assert set(notified_in_order(s, reqs)) == oracle_notified(s, reqs)
        assert set(cleared_in_order(s, reqs)) == oracle_cleared(s, reqs)
        assert set(resumed_in_order(s, reqs)) == oracle_resumed(s, reqs)
        assert set(notified) == (
            oracle_notified(s, reqs) | oracle_cleared(s, reqs) | oracle_resumed(s, reqs)
        )
        model = cache_model(provider)
        lifetime = cache_lifetime(model, one_hour)
        restarts = cache_restarts(s, reqs, model, one_hour)
        want_restarts = oracle_restarts(s, reqs, rules, lifetime)
        assert restarts == want_restarts
        got, prefix = modelled_split(
            reqs,
            model,
            after_compaction=after,
            one_hour=one_hour,
            notified=notified,
            restarts=restarts,
        )
        want, stable = oracle_split(
            reqs, rules, want_after | set(notified), one_hour, want_restarts
        )
        assert [g.usage for g in got] == want
        assert prefix == stable
        # The model keeps what the log says of each request beyond its split.
        assert [(g.context, g.output, g.model) for g in got] == [
            (r.context, r.output, r.model) for r in reqs
        ]


@given(a_log(), st.data())
def test_a_cap_binds_only_below_what_the_request_would_share(
    case: tuple[ParsedLog, frozenset[tuple[int, int]]], data: st.DataObject
) -> None:
    """``caps`` (the what-if's layout, spec §12) only ever lower a read: a cap at or
    above the previous request's context changes nothing, and a capped request reads
    at most its cap (served in whole blocks, so never above it)."""
    log, _ = case
    provider = ANTHROPIC_CACHE if log.format == "claude-code" else OPENAI_CACHE
    rules = cache_model(provider)
    reqs, _after = in_order(log.main)
    plain, _ = modelled_split(reqs, rules)
    loose = [None] + [max(r.context for r in reqs)] * (len(reqs) - 1)
    assert modelled_split(reqs, rules, caps=loose)[0] == plain
    caps = [None] + [data.draw(st.integers(0, 300_000)) for _ in reqs[1:]]
    capped, _ = modelled_split(reqs, rules, caps=caps)
    for got, free, cap in zip(capped[1:], plain[1:], caps[1:], strict=True):
        assert got.cache_read <= free.cache_read
        if cap is not None:
            assert got.cache_read <= cap
        assert got.context == free.context
        assert got.input + got.cache_write + got.cache_read == got.context
