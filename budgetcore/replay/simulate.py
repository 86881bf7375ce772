"""The replay loop (docs/replay.md): one request per turn, at most one background run
after it, the prompt cache and the bill."""

from __future__ import annotations

import dataclasses
import math
import random
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from decimal import Context, Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from budgetcore._exact import ceil_mul
from budgetcore.core.capacity import SummaryCapacity, main_safe_input, summary_capacity
from budgetcore.core.cost import per_turn_cost
from budgetcore.core.plan import check_scenario, request_stages
from budgetcore.core.protections import io_token_cap
from budgetcore.errors import Problem, ScenarioError
from budgetcore.inputs.api import Checks
from budgetcore.inputs.numbers import MAX_TOKENS
from budgetcore.registry.prices import Prices, tier_rates
from budgetcore.replay.background import Retries, RunSlot, Timing, run_fate
from budgetcore.replay.model import (
    MONEY,
    Replay,
    ReplayOptions,
    ReplaySummary,
    RowColumns,
    Turn,
    TurnRow,
    TurnRows,
    decimal_of,
)
from budgetcore.scenario.model import Scenario
from budgetcore.scenario.overrides import apply_overrides

__all__ = [
    "check_turns",
    "first_after",
    "price_places",
    "rates_of",
    "replay",
    "timeline_of",
]

# ---------------------------------------------------------------- the replay


def price_places(prices: Sequence[Prices | None]) -> int:
    """The decimal places that make every given price an integer (tiers included)."""
    places = 0
    for p in prices:
        if p is None:
            continue
        values = [p.input, p.output, p.cache_read, p.cache_write, p.cache_write_1h]
        for t in p.tiers:
            values += [t.input, t.output, t.cache_read, t.cache_write, t.cache_write_1h]
        for value in values:
            if value is not None:
                exponent = value.as_tuple().exponent
                assert isinstance(exponent, int)  # prices are finite
                places = max(places, -exponent)
    return places


def _units(value: Decimal, places: int) -> int:
    return int(MONEY.scaleb(value, places))  # exact: the traps forbid rounding


Rates = tuple[int, int, int, int]


def rates_of(
    prices: Prices | None, places: int, cache: bool
) -> tuple[tuple[int, Rates], ...] | None:
    """Per size tier, ascending (the base first, above -1): the tier's threshold and
    (cold input, cached input, output, summary input) per token in money units, from the
    one cost rule (:func:`budgetcore.registry.prices.tier_rates`): cached tokens at the
    cache-read rate, the rest of the input at the 5-minute cache-write rate when caching
    is on, else at the input rate. A request pays the tier its context is strictly above
    (docs/models-and-peers.md, "Prices"). None: no input or output price, so tokens
    only."""
    tiers = tier_rates(prices)
    if tiers is None:
        return None
    return tuple(
        (
            above,
            (
                _units(r.cache_write_5m if cache else r.input, places),
                _units(r.cache_read, places),
                _units(r.output, places),
                _units(r.input, places),
            ),
        )
        for above, r in tiers
    )


def _at(rates: tuple[tuple[int, Rates], ...], context: int) -> Rates:
    """The rates of the highest tier ``context`` is strictly above."""
    chosen = rates[0][1]
    for above, tier in rates[1:]:
        if context > above:
            chosen = tier
    return chosen


Timeline = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

#: The last timeline, by the identity of its turns (a tuple of frozen turns cannot
#: change) and its timing: the page replays the same turns on every input, and their
#: seeded gaps are the same each time. One entry; a new tuple replaces it.
_last_timeline: list[tuple[tuple[Turn, ...], Timing, Timeline]] = []


def timeline_of(turns: Sequence[Turn], timing: Timing) -> Timeline:
    """Each turn's start and the time its run would start, and every timestamp of the
    session in order (the appends), in milliseconds (docs/spec.md §15). A log's times
    never go backwards: one earlier than the one before it is taken as that one."""
    last = _last_timeline[0] if _last_timeline else None
    if last is not None and last[0] is turns and last[1] == timing:
        return last[2]
    starts, runs, events = _timeline_of(turns, timing)
    found = (tuple(starts), tuple(runs), tuple(events))
    if type(turns) is tuple:
        _last_timeline[:] = [(turns, timing, found)]
    return found


def _timeline_of(turns: Sequence[Turn], timing: Timing) -> tuple[list[int], list[int], list[int]]:
    logged = [t.time_ms is not None for t in turns]
    starts: list[int] = []
    runs: list[int] = []
    events: list[int] = []
    if any(logged):
        if not all(logged) or any(t.gap_ms is not None for t in turns):
            first = logged.index(False) + 1 if not all(logged) else 1
            raise ScenarioError(
                [
                    Problem(
                        f"turn {first}",
                        "must carry a time like every turn of a log (time_ms), not a gap",
                    )
                ]
            )
        prev = -1
        from_turn = timing.run_from == "turn"
        for t in turns:
            assert t.time_ms is not None
            seq = (t.time_ms, t.time_ms if t.reply_end_ms is None else t.reply_end_ms, *t.append_ms)
            clamped = [prev := max(prev, x) for x in seq]
            starts.append(clamped[0])
            runs.append(clamped[0] if from_turn else clamped[1])
            events.extend(clamped)
        return starts, runs, events
    rng = random.Random(timing.gap_seed)
    at = 0
    for index, t in enumerate(turns, start=1):
        starts.append(at)
        gap = t.gap_ms
        if gap is None:
            default = timing.gap_ms
            if default is None:
                rule = "needs gap_ms (or options.timing.gap_ms for every turn without one)"
                raise ScenarioError([Problem(f"turn {index}", rule)])
            gap = default if isinstance(default, int) else default.draw(rng)
        at += gap
    return starts, list(starts), list(starts)


def _whole(v: object) -> bool:
    return type(v) is int and 0 <= v <= MAX_TOKENS


def _wholes(values: list[Any]) -> bool:
    """Every value a whole token count, by column in C (map, set, min, max): a 200,000
    turn log is checked in milliseconds, not in one Python call per field."""
    return not values or (
        set(map(type, values)) == {int} and min(values) >= 0 and max(values) <= MAX_TOKENS
    )


def _turns_ok(turns: Sequence[Any]) -> bool:
    """The common case in a few passes: every turn a Turn, every field as a turns file
    would give it."""
    if set(map(type, turns)) != {Turn}:
        return False
    if not _wholes([t.added for t in turns]):
        return False
    for name in ("required", "output", "gap_ms", "time_ms", "reply_end_ms"):
        if not _wholes([v for t in turns if (v := getattr(t, name)) is not None]):
            return False
    for name in ("billing_recorded", "idle_slot", "lease_acquired"):
        if not set(map(type, (getattr(t, name) for t in turns))) <= {bool, type(None)}:
            return False
    if set(map(type, (t.append_ms for t in turns))) != {tuple}:
        return False
    if not _wholes([v for t in turns if t.append_ms for v in t.append_ms]):
        return False
    return all(
        type(t.changes) is tuple
        and all(type(c) is tuple and len(c) == 2 and type(c[0]) is str for c in t.changes)
        for t in turns
        if t.changes or type(t.changes) is not tuple
    )


def _turn_ok(t: object) -> bool:
    return _turns_ok([t])


def _turn_problems(t: object, where: str) -> list[Problem]:
    """Every problem of a turn built in Python, named as its caller wrote it."""
    check = Checks(where)
    if not isinstance(t, Turn):
        check.rule("", "must be a Turn", t)
        return [dataclasses.replace(p, path=where) for p in check.problems]
    check.whole("added", t.added)
    for name in ("required", "output", "gap_ms", "time_ms", "reply_end_ms"):
        check.whole(name, getattr(t, name), none=True)
    for name in ("billing_recorded", "idle_slot", "lease_acquired"):
        check.flag(name, getattr(t, name), none=True)
    if not isinstance(t.append_ms, tuple):
        check.rule("append_ms", "must be a tuple of times in milliseconds", t.append_ms)
    else:
        for j, v in enumerate(t.append_ms):
            check.whole(f"append_ms[{j}]", v)
    if not isinstance(t.changes, tuple) or not all(
        isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str) for c in t.changes
    ):
        check.rule("changes", "must be a tuple of (override key, value) pairs", t.changes)
    return check.problems


#: The last tuple of turns found valid (a tuple of frozen turns cannot change): the
#: page replays the same one on every input. One entry.
_last_valid: list[tuple[Turn, ...]] = []


def check_turns(turns: object) -> None:
    """``turns`` as the Python API takes them (docs/python-api.md): a list of
    :class:`Turn`, each field held to the rule of a turns file's line, the first bad
    turn named by its index (``turns[2].added``)."""
    if _last_valid and turns is _last_valid[0]:
        return
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence):
        raise ScenarioError([Problem.of("turns", "must be a list of Turn values", turns)])
    if _turns_ok(turns):
        if type(turns) is tuple:
            _last_valid[:] = [turns]
        return
    for i, t in enumerate(turns):  # which one, and what about it
        if not _turn_ok(t):
            problems = _turn_problems(t, f"turns[{i}]")
            if problems:
                raise ScenarioError(problems)


def check_inputs(turns: Sequence[Turn], opts: ReplayOptions) -> None:
    """What every replay refuses before its first turn (the tune's grid refuses the same,
    with the same problems)."""
    if not turns:
        raise ScenarioError([Problem("turns", "must hold at least one turn")])
    if not isinstance(opts, ReplayOptions):
        raise ScenarioError([Problem.of("options", "must be a ReplayOptions or None", opts)])
    check_turns(turns)
    if opts.start_covered > opts.start_history:
        raise ScenarioError(
            [
                Problem(
                    "options.start_covered",
                    "must be at most options.start_history (coverage is part of history), "
                    f"got {opts.start_covered:,} > {opts.start_history:,}",
                )
            ]
        )


def replay(
    scenario: Scenario, turns: Sequence[Turn], options: ReplayOptions | None = None
) -> Replay:
    """Run ``turns`` through ``scenario`` (docs/spec.md §12). Pure: same inputs, same replay."""
    check_scenario(scenario)
    opts = ReplayOptions() if options is None else options
    check_inputs(turns, opts)
    main_prices = opts.main_prices
    summary_prices = main_prices if opts.summary_prices is None else opts.summary_prices
    places = price_places((main_prices, summary_prices))
    main_rates = rates_of(main_prices, places, opts.cache)
    summary_rates = rates_of(summary_prices, places, False)  # summary calls are never cached
    rate = opts.failure_rate
    rng = random.Random(opts.failure_seed) if rate is not None else None
    wrapper = opts.summary_wrapper_tokens
    ratio = opts.summary_ratio
    cache = opts.cache

    timing = opts.timing
    slot = RunSlot(opts.retries) if timing is not None or opts.retries is not None else None
    starts = runs = events = None
    if timing is not None:
        starts, runs, events = timeline_of(turns, timing)
    elif any(t.timed for t in turns):
        rule = "carry times: a clock needs options.timing (its duration model)"
        raise ScenarioError([Problem("turns", rule)])
    # A published run not yet seen by a turn (with a clock it lands at its end): its end
    # in seconds, and the covered history and summary size it publishes.
    pending: tuple[Fraction, int, int] | None = None

    h, c, a = opts.start_history, opts.start_covered, opts.start_summary
    base = scenario
    parts = _parts(base)
    m: int | None = None  # M of the current config
    cap: SummaryCapacity | None = None  # the summary capacity of the current config and A
    cap_for = 0  # the A that capacity is for
    io_cap: int | None = None  # the I/O token cap of the current config and limit
    io_for = -1  # the loader prefetch limit io_cap is for (-1: none yet)
    version = 0  # bumps whenever a run publishes a summary (for the prompt cache)
    prev: tuple[int, int, int, int, int] | None = None  # the last sent request's layout
    store = RowColumns()  # the rows, in TurnRow's field order, kept as columns
    cumulative: int | None = 0
    cumulative_tokens = 0
    for index, turn in enumerate(turns, start=1):
        if turn.changes:
            try:
                base = apply_overrides(base, dict(turn.changes))
            except ScenarioError as exc:
                raise ScenarioError(
                    [Problem(f"turn {index}: {p.path}", p.rule, p.value) for p in exc.problems]
                ) from None
            parts = _parts(base)
            m = cap = None
            io_for = -1
        main_model, summary_contract, config, work, background, limits, samples = parts
        required = work.required_tokens if turn.required is None else turn.required
        output = config.reply_max_tokens if turn.output is None else turn.output
        uncovered = h - c
        h_after = h + turn.added
        offered = a + wrapper if a > 0 else 0  # nothing is adopted while A = 0
        # The turn's request is plan() of _turn_scenario(...): M and the capacity move
        # only with the config or A, so only the per-request stages run every turn.
        if m is None:
            m = main_safe_input(main_model, config.reply_max_tokens, config.safety_margin)
        if cap is None or cap_for != a:
            cap = summary_capacity(
                summary_contract,
                config.summary_max_tokens,
                config.safety_margin,
                previous_summary_tokens=a,
                instruction_tokens=work.summary_instruction_tokens,
            )
            cap_for = a
        limit = max(0, m - offered)  # the loader's prefetch limit, as plan() has it
        if limit != io_for:
            io_cap = io_token_cap(limit, samples, limits)
            io_for = limit
        rnd, f, trigger = request_stages(
            m,
            cap,
            config.trigger_tokens,
            required,
            offered,
            offered,
            uncovered,
            a,
            work.summary_instruction_tokens,
            # The summary round runs after the reply, when the turn's tokens are
            # history too: its backlog is everything uncovered by then.
            h_after - c,
            work.usage_baseline_tokens,
            work.replay_since_baseline_tokens,
            io_cap,
        )
        admitted = f.admitted
        reached = trigger.reached

        # The failure draws happen every turn, in this order, whether needed or not,
        # so one seed gives the same draws whatever K or S are.
        idle_ok = lease_ok = True
        if rng is not None and rate is not None:
            idle_ok = not Decimal(rng.random()) < rate  # Decimal(float) is exact
            lease_ok = not Decimal(rng.random()) < rate
        billing = (
            background.billing_recorded if turn.billing_recorded is None else turn.billing_recorded
        )
        idle = (background.idle_slot if turn.idle_slot is None else turn.idle_slot) and idle_ok
        lease = (
            background.lease_acquired if turn.lease_acquired is None else turn.lease_acquired
        ) and lease_ok

        recompress = rnd.recompress_needed  # A > S
        new_raw = work_input = written = 0
        c_after, a_after = c, a
        fate: str | None = None
        tries = cut = 0
        run_start: int | None = None
        run_end: int | None = None  # ms, rounded up (TurnRow.run_end_ms)
        run_append: int | None = None
        if not admitted:
            status = "rejected"
        elif not reached:
            status = "below K"
        elif not recompress and h_after - c == 0:
            status = "no work"
        elif not recompress and cap.new_raw_budget == 0:
            status = "no room"
        elif not billing:
            status = "no billing"
        elif not idle:
            status = "no idle slot"
        elif not lease:
            status = "no lease"
        else:
            new_raw, work_input = rnd.new_raw, rnd.work_input
            start = None if runs is None else runs[index - 1]
            if work_input > cap.safe_input:
                status, new_raw, work_input = "refused", 0, 0
            elif (
                slot is not None
                and start is not None
                and (pending is not None or not slot.free_at_ms(start))
            ):
                # One run at a time; a published result this turn's plan has not seen
                # yet counts as in flight too (its state is not the turn's).
                status, new_raw, work_input = "run in flight", 0, 0
            elif slot is not None and slot.open:
                status, new_raw, work_input = "breaker open", 0, 0
            else:
                status = "recompress" if recompress else "run"
                target = cap.cap if ratio is None else ceil_mul(a + new_raw, ratio)
                written = min(cap.cap, target)
                if slot is None:
                    a_after = written
                    c_after = c + new_raw
                else:
                    assert events is None or start is not None
                    if events is not None and start is not None:
                        run_append = first_after(events, start)
                    run = run_fate(
                        slot,
                        start_ms=0 if start is None else start,
                        duration_s=(
                            None if timing is None else timing.duration.seconds(work_input, written)
                        ),
                        model_timeout_s=limits.model_timeout_s,
                        run_timeout_s=limits.run_timeout_s,
                        next_append_ms=run_append,
                    )
                    fate, cut = run.fate, int(run.cut)
                    tries = run.tries + cut  # a try cut by a timeout was tried, unbilled
                    if timing is not None:
                        run_start, run_end = run.start_ms, math.ceil(run.end_s * 1000)
                    if run.publishes:
                        if timing is None:  # no clock: it lands at once, as docs/spec.md §12
                            a_after, c_after = written, c + new_raw
                        else:
                            pending = (run.end_s, c + new_raw, written)
        if pending is not None and starts is not None:
            # The state the next turn is planned with: a published run lands at its end.
            following = starts[index] if index < len(starts) else None
            landed = pending[0]  # seconds, against the next turn's milliseconds
            if following is None or landed.numerator * 1000 <= following * landed.denominator:
                c_after, a_after = pending[1], pending[2]
                pending = None

        # Prompt cache: prefix | summary | raw tail | rest of F (docs/spec.md §12, step 4).
        cached = 0
        if admitted:
            prefix = min(opts.stable_prefix_tokens, required)
            raw = f.raw_selected
            # A summary the engine did not adopt is not in the request: only an adopted
            # one can end the shared part.
            shown = version if f.summary_adopted else -1
            layout = (prefix, shown, f.summary_adopted, h - raw, raw)
            if cache and prev is not None:
                p_prefix, p_version, p_adopted, p_start, p_raw = prev
                if p_prefix != prefix:
                    cached = min(prefix, p_prefix)
                elif p_version != shown or p_adopted != f.summary_adopted:
                    cached = prefix
                elif p_start != h - raw:
                    cached = prefix + f.summary_adopted
                else:
                    cached = prefix + f.summary_adopted + p_raw
            prev = layout
            main_in, main_out = f.full_input, output
        else:
            main_in = main_out = 0
        if (c_after, a_after) != (c, a) or (status in ("run", "recompress") and fate is None):
            version += 1  # the next request carries a newly published summary
        # What the run's tries billed: each try at its full input and written output
        # (one try without retries); a try cut by a timeout is unknown, never free.
        billed = 1 if status in ("run", "recompress") and fate is None else tries - cut
        out_billed = billed
        if fate is not None and opts.retries is not None:
            out_billed = opts.retries.output_tries(fate, billed)  # failed tries' output
        summary_in, summary_out = work_input * billed, written * out_billed
        main_units = summary_units = None
        if main_rates is not None:
            cold, warm, out_rate, _ = _at(main_rates, main_in)
            main_units = (main_in - cached) * cold + cached * warm + main_out * out_rate
        if summary_rates is not None and not cut:
            _, _, out_rate, plain = _at(summary_rates, work_input)
            summary_units = summary_in * plain + summary_out * out_rate
        if cumulative is not None:
            if main_units is None or summary_units is None:
                cumulative = None
            else:
                cumulative += main_units + summary_units
        cumulative_tokens += main_in + main_out + summary_in + summary_out
        store.add(
            (
                index,
                h,
                c,
                uncovered,
                a,
                m,
                config.trigger_tokens,
                cap.cap,
                required,
                f.summary_adopted,
                f.raw_selected,
                f.full_input,
                uncovered - f.raw_selected,
                reached,
                admitted,
                turn.added,
                output,
                status,
                new_raw,
                work_input,
                written,
                h_after,
                c_after,
                a_after,
                cached,
                main_in,
                main_out,
                summary_in,
                summary_out,
                cumulative_tokens,
                main_units,
                summary_units,
                cumulative,
                places,
                offered,
                None if starts is None else starts[index - 1],
                fate,
                tries,
                cut,
                run_start,
                run_end,
                run_append,
                base,
            )
        )
        h, c, a = h_after, c_after, a_after
    col = store.done()
    rows = TurnRows(col)
    timed = slot is not None
    summary = _summarise(rows, col)
    if timed:
        summary = _with_timing(summary, rows, col, summary_rates, opts.retries)
    return Replay(scenario, opts, rows, summary, timed, MappingProxyType(col))


def first_after(events: Sequence[int], start: int) -> int | None:
    """The first timestamp strictly after ``start`` (an append at the run's own start
    does not discard it)."""
    i = bisect_right(events, start)
    return events[i] if i < len(events) else None


def _parts(s: Scenario) -> tuple[Any, ...]:
    return (
        s.main_model,
        s.summary_contract,
        s.config,
        s.workload,
        s.background,
        s.limits,
        s.samples,
    )


def _summarise(rows: Sequence[TurnRow], col: Mapping[str, Sequence[Any]]) -> ReplaySummary:
    status = col["status"]
    full = col["full_input"]
    peak = full.index(max(full))  # the first turn at the peak
    first_run = next((i for i, s in enumerate(status) if s in ("run", "recompress")), None)
    main_in = sum(col["main_input_billed"])
    cached = sum(col["cached_input"])
    places = rows[0].money_places
    cost_main = decimal_of(None if None in col["main_units"] else sum(col["main_units"]), places)
    cost_summary = decimal_of(
        None if None in col["summary_units"] else sum(col["summary_units"]), places
    )
    cost = decimal_of(rows[-1].cumulative_units, places)
    per_turn = None
    if cost_main is not None and cost_summary is not None:
        # docs/spec.md §8: per-turn cost ≈ main call + summary calls / the turns they serve;
        # the mean main call is a division, at per_turn_cost's 28 significant digits.
        mean_main = Context(prec=28).divide(cost_main, Decimal(len(rows)))
        per_turn = per_turn_cost(mean_main, cost_summary, len(rows))
    last = rows[-1]
    return ReplaySummary(
        turns=len(rows),
        runs=status.count("run"),
        recompresses=status.count("recompress"),
        refusals=status.count("refused"),
        rejected=col["admitted"].count(False),
        first_run_turn=None if first_run is None else col["turn"][first_run],
        peak_full_input=full[peak],
        peak_turn=col["turn"][peak],
        main_safe_input_at_peak=col["main_safe_input"][peak],
        turns_at_or_above_k=col["trigger_reached"].count(True),
        turns_with_unseen=sum(map((0).__lt__, col["unseen"])),
        peak_unseen=max(col["unseen"]),
        main_input_tokens=main_in,
        main_output_tokens=sum(col["main_output_billed"]),
        main_cached_tokens=cached,
        summary_input_tokens=sum(col["summary_input_billed"]),
        summary_output_tokens=sum(col["summary_output_billed"]),
        cost_main=cost_main,
        cost_summary=cost_summary,
        cost=cost,
        cost_per_turn=per_turn,
        cache_share=Fraction(cached, main_in) if main_in else Fraction(0),
        final_history=last.history_after,
        final_covered=last.covered_after,
        final_summary=last.summary_after,
    )


def _share(part: int | None, whole: int | None) -> Fraction | None:
    return None if part is None or not whole else Fraction(part, whole)


def _with_timing(
    summary: ReplaySummary,
    rows: Sequence[TurnRow],
    col: Mapping[str, Sequence[Any]],
    rates: tuple[tuple[int, Rates], ...] | None,
    retries: Retries | None,
) -> ReplaySummary:
    """The summary with docs/spec.md §15's lines: the candidates, what published, and what
    the runs that did not publish, and every resend, cost (tokens and money)."""
    fates = col["run_fate"]
    published, discarded = fates.count("published"), fates.count("discarded")
    candidates = published + discarded
    unknown = sum(col["run_unknown_tries"])
    tokens = units = wasted_tokens = wasted_units = 0
    retry_tokens: int | None = 0
    retry_units = 0
    priced = rates is not None
    bill_failed = retries is None or retries.bill_failed_output
    for r in rows:
        known = r.run_tries - r.run_unknown_tries  # the tries billed
        if not known:
            continue
        run_tokens = r.summary_input_billed + r.summary_output_billed
        run_units = 0 if r.summary_units is None else r.summary_units
        tokens += run_tokens
        units += run_units
        if r.run_fate == "discarded":
            wasted_tokens += run_tokens
            wasted_units += run_units
        if retry_tokens is not None:
            # The resends are every billed try but the first, which bills its input and
            # its output unless it failed with failed tries' output off (the output
            # tries are the last ones: only the passing try, which ends the run).
            if r.run_unknown_tries:  # the try after a known one was cut: a resend, unknown
                retry_tokens = None
                continue
            passed = r.run_fate in ("published", "discarded")
            first_out = int(bill_failed or (passed and known == 1))
            retry_tokens += run_tokens - r.summary_input - r.written * first_out
            if rates is not None:
                _, _, out_rate, plain = _at(rates, r.summary_input)
                first_units = r.summary_input * plain + r.written * first_out * out_rate
                retry_units += run_units - first_units
    complete = unknown == 0
    total_tokens = tokens if complete else None
    total_units = units if complete and priced else None
    places = rows[0].money_places
    return dataclasses.replace(
        summary,
        summary_input_tokens=summary.summary_input_tokens if complete else None,
        summary_output_tokens=summary.summary_output_tokens if complete else None,
        timed=True,
        candidates=candidates,
        published=published,
        publish_rate=Fraction(published, candidates) if candidates else None,
        discarded=discarded,
        abandoned=fates.count("abandoned"),
        failed=fates.count("failed"),
        in_flight_turns=col["status"].count("run in flight"),
        breaker_open_turns=col["status"].count("breaker open"),
        tries=sum(col["run_tries"]),
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
