"""An independent session replay with background timing and retries (docs/spec.md §15),
on plain dicts.

Written from the contract text alone (docs/spec.md §12 and §15 and the agreed interface for its
inputs and outputs); it shares nothing with budgetcore. Each turn's request is
``tests.oracle.oracle_plan``; the §12 rules are ``tests.replay_oracle.oracle_replay``'s,
re-walked here turn by turn because timing changes which runs start and when their
results land. Money and time are ``fractions.Fraction``: points in time are integers of
milliseconds, compared with durations as ``Fraction(ms, 1000)`` seconds.

The simulation is event by event and deliberately plain: a clock (each turn's start and
the time its run would start), the one run in flight (its end), the list of every
timestamp of the session (the appends), the result a published run has not yet shown to
a turn, and the breaker's count of format failures in a row.

Where the contract does not decide an input the oracle raises ``Undecided`` instead of
guessing; differential tests skip those inputs.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from fractions import Fraction
from typing import Any

from tests.oracle import DEFAULTS, oracle_plan
from tests.replay_oracle import _frac, _layout, _shared, oracle_replay

#: "stop after 3 consecutive failures across runs" (docs/spec.md §15, Retries).
BREAKER_FAILURES = 3
#: "Its timeouts are model call 30 s <= execution 90 s < lease 120 s" (docs/spec.md §15). The lease
#: never binds: the execution timeout cuts every run before it, and neither docs/spec.md §15 nor
#: the interface gives it a rule of its own.
LIMIT_DEFAULTS = {"model_timeout_s": 30, "run_timeout_s": 90, "lease_s": 120}
#: Any of these on a turn turns timing on ("a turn carries a time", interface doc).
TIME_KEYS = ("gap_ms", "time_ms", "reply_end_ms", "append_ms")
LOG_KEYS = ("time_ms", "reply_end_ms", "append_ms")


class Undecided(ValueError):
    """The contract leaves this input's outcome open; the oracle will not guess it."""


# ---------------------------------------------------------------------------------------
# Inputs


def _int_ms(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{field} must be an integer of milliseconds >= 0; got {value!r}")
    return value


def _exact(value: object, field: str) -> Fraction:
    """An exact decimal (string, int or Decimal); a float is refused, never rounded."""
    if isinstance(value, (bool, float)) or value is None:
        raise ValueError(f"{field} must be an exact decimal; got {value!r}")
    return Fraction(str(value))


def _draw_gap(spec: object, rng: random.Random) -> int:
    """One default gap. Interface: an integer, or a distribution "as the generator's".
    Only the integer and "uniform" (``randint(low, high)``, the generator's golden draws
    in tests/test_turns.py) are pinned down by anything this oracle may read."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        return _int_ms(spec, "timing.gap_ms")
    if isinstance(spec, dict) and spec.get("dist") == "uniform":
        low = _int_ms(spec["low"], "timing.gap_ms.low")
        high = _int_ms(spec["high"], "timing.gap_ms.high")
        return rng.randint(low, high)
    raise Undecided(f"timing.gap_ms {spec!r}: the contract does not say how this is drawn")


def _timeline(
    turns: list[dict[str, Any]], timing: dict[str, Any]
) -> tuple[list[int], list[int], list[int]]:
    """Each turn's start, the time its run would start, and every timestamp (ms)."""
    has_log = [any(k in t for k in LOG_KEYS) for t in turns]
    if any(has_log) and not all(has_log):
        raise Undecided("some turns carry log times and some do not")
    if all(has_log):
        if any("gap_ms" in t for t in turns):
            raise Undecided("a turn carries both a log time and a gap")
        return _log_timeline(turns)
    # Gaps only. Interface: "Turn 1 starts at time 0 when turns have gaps only; turn t+1
    # starts at time_t + gap_t". docs/spec.md §15: "gap_t runs from turn t to turn t+1, the reply
    # is instant, so a run starts at its turn's time and its first possible append is the
    # next turn."
    rng = random.Random(timing.get("gap_seed", 0))
    starts = [0]
    for turn in turns[:-1]:  # the last turn's gap leads to no turn: nothing to place
        if "gap_ms" in turn:
            gap = _int_ms(turn["gap_ms"], "gap_ms")
        elif "gap_ms" in timing:
            # Interface: random.Random(gap_seed) draws one gap per turn that needs one,
            # in turn order.
            gap = _draw_gap(timing["gap_ms"], rng)
        else:
            raise Undecided("a turn has no gap and timing.gap_ms is not given")
        starts.append(starts[-1] + gap)
    return starts, list(starts), list(starts)


def _log_timeline(turns: list[dict[str, Any]]) -> tuple[list[int], list[int], list[int]]:
    # docs/spec.md §15: "times never go backwards"; interface: "a time earlier than the one before
    # it is taken as the one before it". The order is the file's: the turn's first entry,
    # the line carrying the reply's final output count, then the later lines.
    starts: list[int] = []
    reply_ends: list[int] = []
    stamps: list[int] = []
    clock = 0
    for turn in turns:
        if "time_ms" not in turn:
            raise Undecided("a log turn without time_ms")
        clock = max(clock, _int_ms(turn["time_ms"], "time_ms"))
        starts.append(clock)
        stamps.append(clock)  # "the next turn's time_ms is itself an append"
        raw_end = turn.get("reply_end_ms", turn["time_ms"])  # "default time_ms"
        clock = max(clock, _int_ms(raw_end, "reply_end_ms"))
        reply_ends.append(clock)
        # docs/spec.md §15: "any later timestamped line of the same series is an append" - so the
        # reply line of a later turn is one too, for a run started before it.
        stamps.append(clock)
        for a in turn.get("append_ms") or []:
            clock = max(clock, _int_ms(a, "append_ms"))
            stamps.append(clock)
    return starts, reply_ends, stamps


def _seconds(ms: int) -> Fraction:
    return Fraction(ms, 1000)


def _duration(timing: dict[str, Any], run_input: int, written: int) -> Fraction:
    """docs/spec.md §15: "Run duration: fixed seconds, or summary input / prefill rate + written /
    decode rate (tokens per second)"; "durations are exact (no rounding ...)"."""
    spec = timing.get("duration")
    if spec is None:
        raise Undecided("timing is on and timing.duration is not given")
    if "fixed_s" in spec:
        d = _exact(spec["fixed_s"], "timing.duration.fixed_s")
    else:
        prefill = _exact(spec["prefill_tokens_per_s"], "timing.duration.prefill_tokens_per_s")
        decode = _exact(spec["decode_tokens_per_s"], "timing.duration.decode_tokens_per_s")
        if prefill <= 0 or decode <= 0:
            raise ValueError("timing.duration rates must be above 0")
        d = Fraction(run_input) / prefill + Fraction(written) / decode
    if d < 0:
        raise ValueError("timing.duration must not be negative")
    return d


def _retry_settings(retries: dict[str, Any]) -> tuple[Fraction, random.Random, str, int, bool]:
    if "failure_rate" not in retries:
        raise Undecided("retries is given without failure_rate")
    p = _exact(retries["failure_rate"], "retries.failure_rate")
    if not 0 <= p <= 1:
        raise ValueError("retries.failure_rate must be from 0 to 1")
    policy = retries.get("policy", "resend")
    if policy not in ("resend", "breaker"):
        raise ValueError(f"retries.policy must be resend or breaker; got {policy!r}")
    # docs/spec.md §15: "N = 10 is the proposal's baseline".
    resends = retries.get("max_resends", 10)
    if isinstance(resends, bool) or not isinstance(resends, int) or resends < 0:
        raise ValueError("retries.max_resends must be an integer >= 0")
    # docs/spec.md §15: "a failed try bills its full input and the written output";
    # docs/replay.md's bill_failed_output false: a failed try bills its input alone.
    bill = retries.get("bill_failed_output", True)
    if not isinstance(bill, bool):
        raise ValueError("retries.bill_failed_output must be true or false")
    return p, random.Random(retries.get("failure_seed", 0)), policy, resends, bill


# ---------------------------------------------------------------------------------------
# One run


def _run(
    start: Fraction | None,
    d: Fraction | None,
    limits: dict[str, int],
    retry: tuple[Fraction, random.Random, str, int, bool] | None,
    fails_in_row: int,
) -> tuple[str, int, int, Fraction | None, int]:
    """The tries of one run: (outcome, tries, unknown tries, end, fails in a row after).

    outcome is "abandoned" (a try was cut), "failed" (no try passed) or "passed".
    ``start`` and ``d`` are None when timing is off: tries then take no time.
    """
    if retry is None:
        max_tries = 1  # retries off: one try, which passes
    elif retry[2] == "breaker":
        max_tries = 1  # interface: "breaker": one try per run
    else:
        max_tries = retry[3] + 1  # docs/spec.md §15: "resend up to N" is N resends, N + 1 tries
    k = 0
    while True:
        k += 1
        end: Fraction | None = None
        if start is not None and d is not None:
            # Interface rule 3: "Tries are back to back: try k ends at start + k·d".
            try_start, end = start + (k - 1) * d, start + k * d
            cuts = []
            # Interface rule 4: "a try longer than model_timeout_s is cut at the model
            # timeout" (docs/spec.md §15 names the 30 s model call timeout, not its effect).
            if d > limits["model_timeout_s"]:
                cuts.append(try_start + limits["model_timeout_s"])
            # docs/spec.md §15: "the execution timeout bounds all tries of a run together, and the
            # try that would end past it is cut (its usage unknown)" - past, so a try that
            # ends exactly at the timeout is not cut.
            if end - start > limits["run_timeout_s"]:
                cuts.append(start + limits["run_timeout_s"])
            if cuts:
                # A cut try gets no reply, so no format check and no draw; the breaker's
                # count neither grows nor resets (no format failure, no passing try).
                return "abandoned", k, 1, min(cuts), fails_in_row
        # Interface: "a try fails its format check when Decimal(rng.random()) < p", "one
        # draw per try, in the order tries happen". Fraction(float) is exact, as
        # Decimal(float) is: the same comparison. Retries off: no draw, the try passes.
        failed = retry is not None and Fraction(retry[1].random()) < retry[0]
        if not failed:
            # docs/spec.md §15: "a passing try resets it".
            return "passed", k, 0, end, 0
        # docs/spec.md §15: "the breaker counts format failures in a row across runs".
        fails_in_row += 1
        if k == max_tries:
            return "failed", k, 0, end, fails_in_row


# ---------------------------------------------------------------------------------------
# The replay


def _timing_on(opts: dict[str, Any], turns: list[dict[str, Any]]) -> bool:
    # Interface: "Timing is on when "timing" is given or any turn carries a time".
    return "timing" in opts or any(k in t for t in turns for k in TIME_KEYS)


def oracle_timed_replay(
    scenario: dict[str, Any], turns: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    opts = options or {}
    timed = _timing_on(opts, turns)
    # Interface: "retries are on when "retries" is given (p = 0 is allowed)".
    retrying = "retries" in opts
    if not timed and not retrying:
        # docs/spec.md §15: "With times off and p = 0 a replay is exactly section 12's."
        return oracle_replay(scenario, turns, options)

    timing = opts.get("timing") or {}
    retry = _retry_settings(opts["retries"]) if retrying else None
    if timed:
        starts, reply_ends, stamps = _timeline(turns, timing)
    appends = [_seconds(a) for a in stamps] if timed else []

    # --- §12 state and settings, as oracle_replay reads them
    sc = copy.deepcopy(scenario)
    history = opts.get("start_history", 0)
    covered = opts.get("start_covered", 0)
    summary = opts.get("start_summary", 0)
    wrapper = opts.get("summary_wrapper_tokens", 0)
    r = _frac(opts.get("summary_ratio"))
    rate = _frac(opts.get("failure_rate"))
    rng = random.Random(opts.get("failure_seed", 0))
    caching = opts.get("cache", False)
    stable = opts.get("stable_prefix_tokens", 0)
    prices = opts.get("main_prices")
    sprices = opts.get("summary_prices") or prices
    priced = bool(prices and prices.get("input") is not None and prices.get("output") is not None)
    summary_id = 0
    previous: list[Any] | None = None

    # --- §15 state
    slot_end: Fraction | None = None  # when the last run started ends (it holds the slot)
    # (publish time, c, A) of a published run no turn has seen yet; untimed, the next turn
    # sees it (as in §12).
    pending: tuple[Fraction | None, int, int] | None = None
    fails_in_row = 0
    breaker_open = False

    rows: list[dict[str, Any]] = []
    per_run: list[dict[str, Any]] = []  # billing detail of each row, for the summary
    for n, turn in enumerate(turns, start=1):
        now = _seconds(starts[n - 1]) if timed else None
        # Interface rule 8: "A published run's new state is seen by the first turn whose
        # time is >= the publish time".
        if pending is not None and (now is None or pending[0] is None or pending[0] <= now):
            _, covered, summary = pending
            summary_id += 1
            pending = None

        # --- docs/spec.md §12 step 1: plan the turn (as oracle_replay)
        for key, value in (turn.get("set") or {}).items():
            section, name = key.split(".")
            sc.setdefault(section, {})[name] = value
        cfg = {**DEFAULTS["config"], **sc.get("config", {})}
        wl = {**DEFAULTS["workload"], **sc.get("workload", {})}
        limits = {**LIMIT_DEFAULTS, **sc.get("limits", {})}
        bg = {"billing_recorded": True, "idle_slot": True, "lease_acquired": True}
        bg.update(sc.get("background", {}))
        f = turn.get("required")
        f = wl["required_tokens"] if f is None else f
        out = turn.get("output")
        out = cfg["reply_max_tokens"] if out is None else out
        sent_summary = summary + wrapper if summary else 0
        turn_sc = copy.deepcopy(sc)
        turn_sc["workload"] = {
            **wl,
            "required_tokens": f,
            "history_tokens": history - covered,
            "previous_summary_tokens": summary,
            "summary_tokens": sent_summary,
            "engine_summary_tokens": sent_summary,
        }
        p = oracle_plan(turn_sc)
        row: dict[str, Any] = {
            "turn": n,
            "history": history,
            "covered": covered,
            "summary": summary,
            "full_input": p["full_input"],
            "raw_selected": p["raw_selected"],
            "summary_adopted": p["summary_adopted"],
            "unseen": history - covered - p["raw_selected"],
            "trigger_reached": p["trigger_reached"],
            "admitted": p["admitted"],
        }

        # --- docs/spec.md §12 step 2: the run's conditions (the §12 draws happen every turn)
        history += turn["added"]
        if rate is not None:
            idle_draw, lease_draw = rng.random(), rng.random()
            idle_ok = not Fraction(idle_draw) < rate
            lease_ok = not Fraction(lease_draw) < rate
        else:
            idle_ok = lease_ok = True
        billing = (
            bg["billing_recorded"]
            if turn.get("billing_recorded") is None
            else turn["billing_recorded"]
        )
        idle = (bg["idle_slot"] if turn.get("idle_slot") is None else turn["idle_slot"]) and idle_ok
        lease = (
            bg["lease_acquired"] if turn.get("lease_acquired") is None else turn["lease_acquired"]
        ) and lease_ok
        s_cap, c_cap = p["summary_cap"], p["summary_safe_input"]
        budget = p["summary_new_raw_budget"]
        instructions = wl["summary_instruction_tokens"]
        recompress = summary > s_cap
        work = recompress or (history - covered > 0 and budget > 0)
        consumed = run_input = written = 0
        if p["admitted"] and p["trigger_reached"] and work and billing and idle and lease:
            consumed = 0 if recompress else min(budget, history - covered)
            run_input = instructions + summary + consumed
            if run_input > c_cap:
                status, consumed, run_input = "refused", 0, 0
            else:
                status = "recompress" if recompress else "run"
                # docs/spec.md §12: "written is what the run read (previous summary + new
                # raw) by default"; never more than S.
                size = summary + consumed if r is None else math.ceil(r * (summary + consumed))
                written = min(s_cap, size)
        else:
            status = None

        # --- docs/spec.md §15: does the run start, and what becomes of it
        fate: str | None = None
        tries = unknown = 0
        run_start_ms: int | None = None
        run_end: Fraction | None = None
        if status in ("run", "recompress"):
            # Interface rule 1: the run starts at reply_end_ms of its turn. docs/spec.md §15: "in a
            # log: the line carrying the reply's final output count starts the run".
            start = _seconds(reply_ends[n - 1]) if timed else None
            # docs/spec.md §15: "At most one run in flight"; "a run that is discarded still runs to
            # its end and holds the one slot". The slot is asked for when the run would
            # start (docs/spec.md §15: "starts a summary run after the main reply is delivered").
            if start is not None and slot_end is not None and start < slot_end:
                status = "run in flight"
            # docs/spec.md §15: "once open it stays open for the session"; interface rule 5:
            # "while open no run starts".
            elif breaker_open:
                status = "breaker open"
            elif pending is not None:
                # Only in a log with tied times: a published run's result lands after this
                # turn was planned (at its time_ms) and before its own run starts (at its
                # reply_end_ms). Whether this run reads the plan's state or the new one is
                # not in the contract.
                raise Undecided(
                    f"turn {n}: a run publishes between the turn's time and its run's start"
                )
            if status in ("run in flight", "breaker open"):
                consumed = run_input = written = 0
            else:
                d = _duration(timing, run_input, written) if timed else None
                outcome, tries, unknown, run_end, fails_in_row = _run(
                    start, d, limits, retry, fails_in_row
                )
                if retry is not None and retry[2] == "breaker":
                    # docs/spec.md §15: "stop after 3 consecutive failures across runs".
                    breaker_open = breaker_open or fails_in_row >= BREAKER_FAILURES
                if outcome != "passed":
                    # Interface rule 7: abandoned > failed > ...
                    fate = outcome
                elif start is not None and any(start < a < run_end for a in appends):
                    # docs/spec.md §15: "an append at exactly the publish time does not discard
                    # (only appends after the run starts and before it ends count)".
                    fate = "discarded"
                else:
                    # docs/spec.md §15: "otherwise it publishes at its end"; §12: c += new_raw,
                    # A' = min(S, written).
                    fate = "published"
                    pending = (run_end, covered + consumed, written)
                slot_end = run_end
                run_start_ms = reply_ends[n - 1] if timed else None

        # --- docs/spec.md §12 step 4: the prompt cache (as oracle_replay)
        cached = 0
        if p["admitted"]:
            prefix = min(stable, f)
            adopted = p["summary_adopted"]
            raw = p["raw_selected"]
            layout = _layout(
                prefix, summary_id if adopted else None, adopted, row["history"] - raw, raw
            )
            if caching and previous is not None:
                cached = _shared(previous, layout)
            previous = layout

        # --- docs/spec.md §12 step 3 and §15: cost. "Every try is billed at its full input";
        # "a failed try bills its full input and the written output"; the cut try's usage
        # is unknown, never free, so a row with one has no cost.
        known = tries - unknown
        # Which known tries wrote billed output: every one, or (bill_failed_output off)
        # only the passing one, which is the last (it ends the run).
        passed = fate in ("published", "discarded")
        bill = retry is None or retry[4]
        outputs = [bill or (passed and k == known) for k in range(1, known + 1)]
        billed_in, billed_out = known * run_input, sum(outputs) * written
        main_in = p["full_input"] if p["admitted"] else 0
        main_out = out if p["admitted"] else 0
        cost = None
        try_costs: list[Fraction] | None = None
        if priced:
            inp = _frac(prices["input"])
            read = _frac(prices.get("cache_read")) or inp
            write = _frac(prices.get("cache_write")) if caching else None
            write = write if write is not None else inp
            cost = (main_in - cached) * write + cached * read + main_out * _frac(prices["output"])
            in_cost = run_input * _frac(sprices["input"])
            out_cost = written * _frac(sprices["output"])
            try_costs = [in_cost + out_cost * o for o in outputs]
            cost = None if unknown else cost + sum(try_costs, Fraction(0))
        row.update(
            status=status,
            new_raw=consumed,
            summary_input=run_input,
            written=written,
            history_after=history,
            covered_after=None,  # filled below: the state the next turn sees
            summary_after=None,
            cached_input=cached,
            main_input_billed=main_in,
            main_output_billed=main_out,
            cost=cost,
            time_ms=starts[n - 1] if timed else None,
            run_fate=fate,
            run_tries=tries,
            run_start_ms=run_start_ms,
            # docs/cli.md, "Names and units": time points in whole ms, a run's end
            # rounded up (every append is a whole ms, so no fate reads differently).
            run_end_ms=None if run_end is None else math.ceil(run_end * 1000),
            run_unknown_tries=unknown,
            summary_input_billed=billed_in,
            summary_output_billed=billed_out,
        )
        rows.append(row)
        per_run.append(
            {"try_tokens": [run_input + written * o for o in outputs], "try_costs": try_costs}
        )

    # The state after turn t is the state turn t+1 is planned with (interface rule 8);
    # after the last turn, every run has ended and every published result has landed.
    if pending is not None:
        _, covered, summary = pending
    for row, following in itertools.pairwise(rows):
        row["covered_after"], row["summary_after"] = following["covered"], following["summary"]
    rows[-1]["covered_after"], rows[-1]["summary_after"] = covered, summary

    return rows, _summary(rows, per_run, priced)


def _share(part: Fraction | int | None, whole: Fraction | int | None) -> Fraction | None:
    if part is None or whole is None or whole == 0:
        return None
    return Fraction(part) / Fraction(whole)


def _summary(
    rows: list[dict[str, Any]], per_run: list[dict[str, Any]], priced: bool
) -> dict[str, Any]:
    unknown = sum(x["run_unknown_tries"] for x in rows)
    main_total = sum(x["main_input_billed"] for x in rows)
    cached_total = sum(x["cached_input"] for x in rows)
    costs = [x["cost"] for x in rows]
    fates = [x["run_fate"] for x in rows]
    published, discarded = fates.count("published"), fates.count("discarded")
    candidates = published + discarded  # interface: candidates (= published + discarded)

    def total(runs: list[tuple[dict[str, Any], dict[str, Any]]], after_first: bool) -> Any:
        """Summary tokens and cost of these runs' tries (all, or those after the first);
        None when a counted try was cut: its usage is unknown, never free."""
        tokens, cost, blind = 0, Fraction(0), False
        for row, run in runs:
            counted = max(0, row["run_tries"] - 1) if after_first else row["run_tries"]
            cut = bool(row["run_unknown_tries"]) and counted > 0  # the cut try is the last
            blind = blind or cut
            first = 1 if after_first else 0
            tokens += sum(run["try_tokens"][first:])
            if priced:
                cost += sum(run["try_costs"][first:], Fraction(0))
        return (None if blind else tokens), (None if blind or not priced else cost)

    pairs = list(zip(rows, per_run, strict=True))
    all_tokens, all_cost = total(pairs, after_first=False)
    discarded_runs = [x for x in pairs if x[0]["run_fate"] == "discarded"]
    d_tokens, d_cost = total(discarded_runs, after_first=False)
    r_tokens, r_cost = total(pairs, after_first=True)
    return {
        # docs/spec.md §12's summary; its summary-call totals count every try (docs/spec.md
        # §15: "Every try is billed"), unknown when a try was cut.
        "turns": len(rows),
        "runs": sum(x["status"] == "run" for x in rows),
        "recompresses": sum(x["status"] == "recompress" for x in rows),
        "refusals": sum(x["status"] == "refused" for x in rows),
        "turns_at_or_above_k": sum(x["trigger_reached"] for x in rows),
        "turns_with_unseen": sum(x["unseen"] > 0 for x in rows),
        "peak_full_input": max(x["full_input"] for x in rows),
        "main_input_tokens": main_total,
        "main_cached_tokens": cached_total,
        "summary_input_tokens": None if unknown else sum(x["summary_input_billed"] for x in rows),
        "summary_output_tokens": None if unknown else sum(x["summary_output_billed"] for x in rows),
        "cost": None if any(c is None for c in costs) else sum(costs, Fraction(0)),
        "cache_share": Fraction(cached_total, main_total) if main_total else Fraction(0),
        # docs/spec.md §15's outputs
        "candidates": candidates,
        "published": published,
        "publish_rate": Fraction(published, candidates) if candidates else None,
        "discarded": discarded,
        "abandoned": fates.count("abandoned"),
        "failed": fates.count("failed"),
        "in_flight_turns": sum(x["status"] == "run in flight" for x in rows),
        "breaker_open_turns": sum(x["status"] == "breaker open" for x in rows),
        "tries": sum(x["run_tries"] for x in rows),
        "unknown_tries": unknown,
        "summary_tokens": all_tokens,
        "summary_cost": all_cost,
        "discarded_tokens": d_tokens,
        "discarded_cost": d_cost,
        "retry_tokens": r_tokens,
        "retry_cost": r_cost,
        "discarded_token_share": _share(d_tokens, all_tokens),
        "retry_token_share": _share(r_tokens, all_tokens),
        "discarded_cost_share": _share(d_cost, all_cost),
        "retry_cost_share": _share(r_cost, all_cost),
    }
