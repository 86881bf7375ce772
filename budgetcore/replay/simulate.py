"""A session replay (docs/replay.md): :func:`replay`, the engine's run
(:mod:`budgetcore.replay.engine`) with its rows and summary. The turns' checks, the
clock's timeline and the prices as integers, which the engine and tune share, live in
:mod:`budgetcore.replay.prepared` and keep their names here."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from decimal import Context, Decimal
from fractions import Fraction
from itertools import accumulate, compress
from operator import add, sub
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from budgetcore.core.cost import per_turn_cost
from budgetcore.core.plan import check_scenario
from budgetcore.core.scenario import Scenario
from budgetcore.replay.engine import COUNTS, point_counts
from budgetcore.replay.model import (
    Replay,
    ReplayOptions,
    ReplaySummary,
    Turn,
    TurnRow,
    TurnRows,
    decimal_of,
    stored_column,
)
from budgetcore.replay.prepared import (
    Known,
    Rates,
    _at,
    check_turns,
    first_after,
    fixed_columns,
    prepare,
    price_places,
    rates_of,
    timeline_of,
)

if TYPE_CHECKING:
    from budgetcore.replay.background import Retries

__all__ = [
    "check_turns",
    "first_after",
    "price_places",
    "rates_of",
    "replay",
    "replay_known",
    "timeline_of",
]


def replay(
    scenario: Scenario, turns: Sequence[Turn], options: ReplayOptions | None = None
) -> Replay:
    """Run ``turns`` through ``scenario`` (docs/spec.md §12). Pure: same inputs, same replay.

    The arithmetic is the engine's (:mod:`budgetcore.replay.engine`, the one tune runs
    at every grid point, docs/architecture.md "The engine"): it records each turn, and
    the rows are its values with what follows from them (the state after a turn is the
    next turn's, the bill the tokens at their price tier's rates)."""
    return replay_known(scenario, turns, options)[0]


def replay_known(
    scenario: Scenario,
    turns: Sequence[Turn],
    options: ReplayOptions | None = None,
    before: Known | None = None,
) -> tuple[Replay, Known | None]:
    """:func:`replay`, given (``before``) and giving what is known of the turns
    whatever the scenario (prepared.Known: valid, their timeline): the page's replay
    job keeps it for its next replay of the same turns, which then skips that work (the
    timed redraw). The replay is the same with or without it."""
    check_scenario(scenario)
    # every input refused, as named problems
    session = prepare(scenario, turns, options, known=before)
    opts = ReplayOptions() if options is None else options
    cfg = scenario.config
    recorded: list[tuple[Any, ...]] = []
    fates: dict[int, tuple[str, int, int, int]] = {}
    counts = point_counts(session, cfg.trigger_tokens, cfg.summary_max_tokens, recorded, fates)
    n = len(recorded)
    (
        covered,
        summary,
        adopted,
        raw,
        full,
        reached,
        status,
        new_raw,
        work,
        written,
        cached,
        offered,
    ) = zip(*recorded, strict=True)
    del recorded
    # The columns no K or S changes: a kept session's (prepared.Known), or worked out
    # now and kept with it (for the next replay at another K or S).
    kept = session.known
    fixed = None if kept is None else kept.columns
    if fixed is None:
        fixed = fixed_columns(session)
        if kept is not None and kept.session is not None:
            kept = dataclasses.replace(kept, columns=fixed)
    k_col: list[int] = []
    s_col: list[int] = []
    scenarios: list[Scenario] = []
    for seg in session.segments:
        span = seg.stop - seg.start
        k_col += [cfg.trigger_tokens if seg.trigger is None else seg.trigger] * span
        s_col += [seg.summary(cfg.summary_max_tokens)[0]] * span
        assert seg.scenario is not None
        scenarios += [seg.scenario] * span
    history = session.history
    admitted, main_out = fixed["admitted"], fixed["main_output_billed"]
    # Every request sent is billed its full input; with none rejected, that is the column.
    main_in: Sequence[int] = full
    if False in admitted:
        main_in = [f if ok else 0 for f, ok in zip(full, admitted, strict=True)]
    uncovered = list(map(sub, history, covered))
    final_covered = counts.counts[COUNTS.index("final_covered")]
    final_summary = counts.counts[COUNTS.index("final_summary")]
    # What the runs billed: each try at its full input and written output (one try
    # without a clock or retries); a try cut by a timeout is unknown, never free.
    billed_in: Sequence[int] = work
    billed_out: Sequence[int] = written
    none: tuple[None, ...] = (None,) * n
    fate_col: Sequence[str | None] = none
    tries_col: Sequence[int] = [0] * n
    cut_col: Sequence[int] = tries_col
    start_col: Sequence[int | None] = none
    end_col: Sequence[int | None] = none
    append_col: Sequence[int | None] = none
    unit = session.unit
    per_ms = unit // 1000  # exact: the unit is a multiple of 1,000 (replay.clock)
    if fates:
        billed_in, billed_out = list(work), list(written)
        fate_l: list[str | None] = [None] * n
        tries_l, cut_l = [0] * n, [0] * n
        start_l: list[int | None] = [None] * n
        end_l: list[int | None] = [None] * n
        append_l: list[int | None] = [None] * n
        clock = session.timing is not None
        retries = session.retries
        # docs/spec.md §15: with retries.bill_failed_output off a failed try bills its
        # input only (the engine's own sums count the same tries); on, every try its output.
        output_tries = None if retries is None or retries.bill_failed_output else retries
        runs_at, appends = session.run_at, session.next_append
        for t, (fate, known, cut, end) in fates.items():
            outs = known if output_tries is None else output_tries.output_tries(fate, known)
            billed_in[t], billed_out[t] = work[t] * known, written[t] * outs
            fate_l[t], tries_l[t], cut_l[t] = fate, known + cut, cut
            if clock:
                run_at, following = runs_at[t], appends[t]
                assert run_at is not None
                # The end shown in whole milliseconds, rounded up (TurnRow.run_end_ms):
                # every append is a whole millisecond, so no decision is lost.
                start_l[t], end_l[t] = run_at // per_ms, -(-end // per_ms)
                append_l[t] = None if following is None else following // per_ms
        fate_col, tries_col, cut_col = fate_l, tries_l, cut_l
        start_col, end_col, append_col = start_l, end_l, append_l
    main_rates, summary_rates = session.main_rates, session.summary_rates
    main_units: list[int] | None = None
    summary_units: list[int | None] | None = None
    if main_rates is not None:
        if len(main_rates) == 1:  # one tier: the same rates for every request
            cold, warm, out_rate, _ = main_rates[0][1]
            main_units = [
                (i - ch) * cold + ch * warm + o * out_rate
                for i, ch, o in zip(main_in, cached, main_out, strict=True)
            ]
        else:
            main_units = []
            for i, ch, o in zip(main_in, cached, main_out, strict=True):
                cold, warm, out_rate, _ = _at(main_rates, i)
                main_units.append((i - ch) * cold + ch * warm + o * out_rate)
    if summary_rates is not None:
        summary_units = []
        for w, b_in, b_out, cut in zip(work, billed_in, billed_out, cut_col, strict=True):
            _, _, out_rate, plain = _at(summary_rates, w)
            summary_units.append(None if cut else b_in * plain + b_out * out_rate)
    cumulative: Iterable[int | None] = none
    if main_units is not None and summary_units is not None:
        if None in summary_units:
            running: int | None = 0
            cumulative = []
            for mu, su in zip(main_units, summary_units, strict=True):
                if running is not None:
                    running = None if su is None else running + mu + su
                cumulative.append(running)
        else:
            cumulative = accumulate(map(add, main_units, summary_units))
    tokens = map(add, map(add, main_in, main_out), map(add, billed_in, billed_out))
    values: dict[str, Iterable[Any]] = {
        "covered": covered,
        "uncovered": uncovered,
        "summary": summary,
        "trigger_tokens": k_col,
        "summary_cap": s_col,
        "summary_adopted": adopted,
        "raw_selected": raw,
        "full_input": full,
        "unseen": map(sub, uncovered, raw),
        "trigger_reached": reached,
        "status": status,
        "new_raw": new_raw,
        "summary_input": work,
        "written": written,
        "covered_after": (*covered[1:], final_covered),
        "summary_after": (*summary[1:], final_summary),
        "cached_input": cached,
        "main_input_billed": main_in,
        "summary_input_billed": billed_in,
        "summary_output_billed": billed_out,
        "cumulative_tokens": accumulate(tokens),
        "main_units": none if main_units is None else main_units,
        "summary_units": none if summary_units is None else summary_units,
        "cumulative_units": cumulative,
        "summary_offered": offered,
        "run_fate": fate_col,
        "run_tries": tries_col,
        "run_unknown_tries": cut_col,
        "run_start_ms": start_col,
        "run_end_ms": end_col,
        "run_next_append_ms": append_col,
        "scenario": scenarios,
    }
    col = {k: fixed[k] if k in fixed else stored_column(k, values[k]) for k in TurnRow._fields}
    rows = TurnRows(col)
    # One summary made from its fields: with a clock or retries §15's lines are added
    # to them, where a second summary replaced the first (46 fields a replay).
    fields = _summarise(rows, col, counts.counts)
    if session.timed:
        _with_timing(fields, rows, col, summary_rates, opts.retries, counts=counts.counts)
    result = ReplaySummary(**fields)
    return (
        Replay(scenario, opts, rows, result, session.timed, MappingProxyType(col)),
        kept,
    )


def _summarise(
    rows: Sequence[TurnRow], col: Mapping[str, Sequence[Any]], counts: tuple[int, ...]
) -> dict[str, Any]:
    """The summary's fields (``ReplaySummary``) without §15's."""
    # The counts the engine keeps as it makes the rows (COUNTS) are read, not counted
    # again: the peak (the first turn at it), the first run, the sent requests' input
    # (a request is sent exactly when it is admitted). Single values are read from their
    # columns: a row read builds all 36 of its fields.
    main_in = counts[_AT["main_input_tokens"]]
    cached = counts[_AT["main_cached_tokens"]]
    first_run = counts[_AT["first_run_turn"]]
    places = col["money_places"][0]
    cost_main = decimal_of(None if None in col["main_units"] else sum(col["main_units"]), places)
    cost_summary = decimal_of(
        None if None in col["summary_units"] else sum(col["summary_units"]), places
    )
    cost = decimal_of(col["cumulative_units"][-1], places)
    per_turn = None
    if cost_main is not None and cost_summary is not None:
        # docs/spec.md §8: per-turn cost ≈ main call + summary calls / the turns they serve;
        # the mean main call is a division, at per_turn_cost's 28 significant digits.
        mean_main = Context(prec=28).divide(cost_main, Decimal(len(rows)))
        per_turn = per_turn_cost(mean_main, cost_summary, len(rows))
    return dict(
        turns=len(rows),
        runs=counts[_AT["runs"]],
        recompresses=counts[_AT["recompresses"]],
        refusals=counts[_AT["refusals"]],
        rejected=col["admitted"].count(False),
        first_run_turn=first_run or None,
        peak_full_input=counts[_AT["peak_full_input"]],
        peak_turn=counts[_AT["peak_turn"]],
        main_safe_input_at_peak=counts[_AT["main_safe_input_at_peak"]],
        turns_at_or_above_k=counts[_AT["turns_at_or_above_k"]],
        turns_with_unseen=sum(map((0).__lt__, col["unseen"])),
        peak_unseen=max(col["unseen"]),
        main_input_tokens=main_in,
        main_output_tokens=sum(col["main_output_billed"]),
        main_cached_tokens=cached,
        summary_input_tokens=counts[_AT["summary_input_tokens"]],
        summary_output_tokens=counts[_AT["summary_output_tokens"]],
        cost_main=cost_main,
        cost_summary=cost_summary,
        cost=cost,
        cost_per_turn=per_turn,
        cache_share=Fraction(cached, main_in) if main_in else Fraction(0),
        final_history=col["history_after"][-1],
        final_covered=counts[_AT["final_covered"]],
        final_summary=counts[_AT["final_summary"]],
    )


#: Where each of the engine's counters is in its tuple.
_AT = {name: i for i, name in enumerate(COUNTS)}


def _share(part: int | None, whole: int | None) -> Fraction | None:
    return None if part is None or not whole else Fraction(part, whole)


def _with_timing(
    summary: dict[str, Any],
    rows: Sequence[TurnRow],
    col: Mapping[str, Sequence[Any]],
    rates: Rates | None,
    retries: Retries | None,
    *,
    counts: tuple[int, ...],
) -> None:
    """Add to the summary's fields (:func:`_summarise`) docs/spec.md §15's lines: the
    candidates, what published, and what the runs that did not publish, and every
    resend, cost (tokens and money). The counts and tokens are the engine's own
    counters (``counts``: :data:`COUNTS`), which count the same tries as the rows; only
    money is summed here, per run, since a run's price tier is its own."""
    fates = col["run_fate"]
    published, discarded = counts[_AT["published"]], counts[_AT["discarded"]]
    candidates = published + discarded
    unknown = counts[_AT["unknown_tries"]]
    priced = rates is not None
    # Every billed try of every run: the summary input and output the engine billed.
    tokens = counts[_AT["summary_input_tokens"]] + counts[_AT["summary_output_tokens"]]
    wasted_tokens = counts[_AT["discarded_tokens"]]
    # The resends are every billed try but the first; a cut try after a known one is a
    # resend of unknown usage: then the resends' tokens are unknown.
    retry_tokens = None if counts[_AT["retry_unknown"]] else counts[_AT["retry_tokens"]]
    units = wasted_units = retry_units = 0
    if rates is not None:
        bill_failed = retries is None or retries.bill_failed_output
        # The runs that billed a try, each quantity read at them only (the columns as
        # lists, indexed in C).
        tries_col, cut_col = list(col["run_tries"]), list(col["run_unknown_tries"])
        known_col = list(map(sub, tries_col, cut_col))  # the tries billed
        ran = list(compress(range(len(known_col)), known_col))
        units_col = list(col["summary_units"])
        run_units = [units_col[i] or 0 for i in ran]
        units = sum(run_units)
        wasted_units = sum(compress(run_units, [fates[i] == "discarded" for i in ran]))
        if retry_tokens is not None:
            # The first try bills its input and its output unless it failed with failed
            # tries' output off (the output tries are the last ones: only the passing
            # try, which ends the run).
            inputs, written_col = list(col["summary_input"]), list(col["written"])
            first_units = 0
            for i in ran:
                first = bill_failed or (
                    fates[i] in ("published", "discarded") and known_col[i] == 1
                )
                _, _, out_rate, plain = _at(rates, inputs[i])
                first_units += inputs[i] * plain + (written_col[i] if first else 0) * out_rate
            retry_units = units - first_units
    complete = unknown == 0
    total_tokens = tokens if complete else None
    total_units = units if complete and priced else None
    places = col["money_places"][0]
    if not complete:
        summary["summary_input_tokens"] = summary["summary_output_tokens"] = None
    summary.update(
        timed=True,
        candidates=candidates,
        published=published,
        publish_rate=Fraction(published, candidates) if candidates else None,
        discarded=discarded,
        abandoned=counts[_AT["abandoned"]],
        failed=counts[_AT["failed"]],
        in_flight_turns=counts[_AT["in_flight_turns"]],
        breaker_open_turns=counts[_AT["breaker_open_turns"]],
        tries=counts[_AT["tries"]],
        unknown_tries=unknown,
        summary_tokens=total_tokens,
        summary_cost=decimal_of(total_units, places),
        discarded_tokens=wasted_tokens,
        # A discarded run is never cut, so its cost is known whenever there are prices;
        # the resends' too, unless the cut try was one.
        discarded_cost=decimal_of(wasted_units if priced else None, places),
        retry_tokens=retry_tokens,
        retry_cost=decimal_of(retry_units if priced and retry_tokens is not None else None, places),
        discarded_token_share=_share(wasted_tokens, total_tokens),
        retry_token_share=_share(retry_tokens, total_tokens),
        discarded_cost_share=_share(wasted_units, total_units),
        retry_cost_share=_share(None if retry_tokens is None else retry_units, total_units),
    )
