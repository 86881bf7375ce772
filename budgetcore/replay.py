"""Session replay (SPEC §12): a conversation over time, one ``plan()`` per turn.

A replay adds no budget rule. Each turn's request is :func:`budgetcore.plan.plan` of the
turn's scenario (the scenario with ``history_tokens = H - c``, ``previous_summary_tokens
= A``, ``summary_tokens = engine_summary_tokens = A + wrapper`` and ``backlog_tokens``
the history uncovered once the turn's tokens are added); after the reply at most one
background summary run may start, under exactly the conditions of SPEC §5, and it is
that plan's summary round (new raw, work input; a recompress when A > S). State is
three integers: H (all history), c (the oldest history the summary covers) and A (the
summary's size).

Rows are ``NamedTuple`` values rather than frozen dataclasses: they are immutable all
the same, and a 500-turn replay that the page re-runs on every input builds 500 of
them, where a frozen dataclass of thirty fields costs several times as much to build.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal, Inexact, Rounded
from fractions import Fraction
from functools import partial
from types import MappingProxyType
from typing import Any, NamedTuple

from budgetcore._exact import ceil_mul
from budgetcore.capacity import SummaryCapacity, main_safe_input, summary_capacity
from budgetcore.config import REGISTRY, apply_overrides
from budgetcore.cost import per_turn_cost
from budgetcore.errors import Problem, ScenarioError
from budgetcore.io import io_token_cap
from budgetcore.plan import Plan, plan, request_stages
from budgetcore.prices import Prices
from budgetcore.scenario import MAX_TOKENS, Scenario, Workload, load_json, parse_field

__all__ = [
    "ROW_KEYS",
    "STATUSES",
    "SUMMARY_KEYS",
    "Replay",
    "ReplayOptions",
    "ReplaySummary",
    "Turn",
    "TurnRow",
    "columns",
    "parse_changes",
    "parse_options",
    "parse_options_json",
    "parse_prices",
    "replay",
]

#: What happened in the background after a turn. A run that consumed raw history, a
#: recompress, a refused run (input above C), or why none started.
STATUSES: tuple[str, ...] = (
    "run",
    "recompress",
    "refused",
    "rejected",  # the request was not admitted (F > M): not sent, not billed, starts nothing
    "below K",
    "no work",  # no uncovered history and nothing to recompress
    "no room",  # uncovered history, but a new raw budget of 0
    "no billing",
    "no idle slot",
    "no lease",
)

#: Supported overrides a turn may change from that turn on (SPEC §9 keys).
_CHANGEABLE = {o.key: o for o in REGISTRY}

# Money is exact: products and sums of integers and prices with at most 28 significant
# digits never need rounding at this precision, and the traps make sure none happens.
_MONEY = Context(prec=120, traps=[Inexact, Rounded])


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn:
    """One turn of a session: ``added`` tokens become history after the reply.

    ``required`` (F) and ``output`` (reply tokens) default to the scenario's F and o;
    ``changes`` are supported overrides (``config.summary_max_tokens`` …) applied from
    this turn on; the three flags, when given, replace the scenario's background flag
    for this turn only.
    """

    added: int
    required: int | None = None
    output: int | None = None
    changes: tuple[tuple[str, object], ...] = ()
    billing_recorded: bool | None = None
    idle_slot: bool | None = None
    lease_acquired: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayOptions:
    """Replay inputs besides the scenario and the turns (SPEC §12)."""

    start_history: int = 0  # H0
    start_covered: int = 0  # c0 (at most H0)
    start_summary: int = 0  # A0
    summary_wrapper_tokens: int = 0  # the read-only wrapper around an adopted summary
    summary_ratio: Decimal | None = None  # None: a run writes S; else ceil(r × (A + new raw))
    failure_rate: Decimal | None = None  # idle slot and lease each fail with this chance
    failure_seed: int = 0
    cache: bool = False  # prompt caching of the main requests
    stable_prefix_tokens: int = 0  # the part of F shared by every request (rules, tools)
    main_prices: Prices | None = None
    summary_prices: Prices | None = None  # None: the main model's prices


class TurnRow(NamedTuple):
    """One turn: state at plan time, the request, the background outcome, the bill."""

    turn: int  # 1-based
    history: int  # H at plan time
    covered: int  # c at plan time
    uncovered: int  # H - c
    summary: int  # A at plan time
    main_safe_input: int  # M (a config change can move it)
    trigger_tokens: int  # K
    summary_cap: int  # S
    required: int  # F
    summary_adopted: int
    raw_selected: int
    full_input: int
    unseen: int  # uncovered history the model does not see this turn
    trigger_reached: bool
    admitted: bool
    added: int
    output: int
    status: str  # one of STATUSES
    new_raw: int
    summary_input: int  # instructions + A + new raw, of a run that happened (else 0)
    written: int  # A' of a run that happened (else 0)
    history_after: int
    covered_after: int
    summary_after: int
    cached_input: int  # main input tokens read from the prompt cache
    main_input_billed: int
    main_output_billed: int
    summary_input_billed: int
    summary_output_billed: int
    cumulative_tokens: int  # every billed token so far, main and summary, in and out
    # Money as exact integers of 10^-money_places (None: no prices, tokens only); the
    # Decimal properties below read them.
    main_units: int | None
    summary_units: int | None
    cumulative_units: int | None
    money_places: int
    summary_offered: int  # A + the wrapper (0 while A = 0): the summary the turn offers
    scenario: Scenario  # the scenario in force at this turn (after any config change)

    @property
    def plan(self) -> Plan:
        """The turn's request as :func:`budgetcore.plan.plan` computes it (rebuilt on
        demand: the replay itself runs only the per-request stages)."""
        return plan(
            _turn_scenario(
                self.scenario,
                required=self.required,
                offered=self.summary_offered,
                uncovered=self.uncovered,
                summary=self.summary,
                backlog=self.history_after - self.covered,
            )
        )

    @property
    def run(self) -> bool:
        """A summary call happened (a run or a recompress)."""
        return self.status in ("run", "recompress")

    @property
    def cost_main(self) -> Decimal | None:
        return _decimal_of(self.main_units, self.money_places)

    @property
    def cost_summary(self) -> Decimal | None:
        return _decimal_of(self.summary_units, self.money_places)

    @property
    def cost(self) -> Decimal | None:
        if self.main_units is None or self.summary_units is None:
            return None
        return _decimal_of(self.main_units + self.summary_units, self.money_places)

    @property
    def cumulative_cost(self) -> Decimal | None:
        return _decimal_of(self.cumulative_units, self.money_places)

    def as_dict(self) -> dict[str, Any]:
        """The machine row: integers, booleans, money as exact decimal strings."""
        out: dict[str, Any] = {}
        for key in ROW_KEYS:
            value = getattr(self, key)
            out[key] = str(value) if isinstance(value, Decimal) else value
        return out


#: The keys of a row as the CLI prints them, in order (the plan is not printed).
ROW_KEYS: tuple[str, ...] = (
    *TurnRow._fields[: TurnRow._fields.index("cumulative_tokens")],
    "cost_main",
    "cost_summary",
    "cost",
    "cumulative_cost",
    "cumulative_tokens",
    "run",
)


def _decimal_of(units: int | None, places: int) -> Decimal | None:
    """units × 10^-places as an exact Decimal."""
    if units is None:
        return None
    return _MONEY.scaleb(Decimal(units), -places)  # the traps forbid rounding


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplaySummary:
    turns: int
    runs: int  # runs that consumed raw history
    recompresses: int
    refusals: int
    rejected: int  # requests not admitted
    first_run_turn: int | None
    peak_full_input: int
    peak_turn: int
    main_safe_input_at_peak: int
    turns_at_or_above_k: int
    turns_with_unseen: int
    peak_unseen: int
    main_input_tokens: int
    main_output_tokens: int
    main_cached_tokens: int
    summary_input_tokens: int
    summary_output_tokens: int
    cost_main: Decimal | None
    cost_summary: Decimal | None
    cost: Decimal | None
    cost_per_turn: Decimal | None  # SPEC §8: mean main call + summary calls / turns
    cache_share: Fraction  # cached main input / main input (0 when nothing was billed)
    final_history: int
    final_covered: int
    final_summary: int

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in SUMMARY_KEYS:
            value = getattr(self, key)
            out[key] = str(value) if isinstance(value, Decimal | Fraction) else value
        return out


SUMMARY_KEYS: tuple[str, ...] = tuple(ReplaySummary.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class Replay:
    scenario: Scenario  # the scenario the replay started from (before any change)
    options: ReplayOptions
    rows: tuple[TurnRow, ...]
    summary: ReplaySummary
    # ``rows`` transposed once (see :func:`columns`): the summary and both charts read
    # it. Derived from ``rows``, so it takes no part in equality.
    columns: Mapping[str, tuple[Any, ...]] = field(compare=False, repr=False)


# ---------------------------------------------------------------- the replay


def _places(prices: Sequence[Prices | None]) -> int:
    """The decimal places that make every given price an integer."""
    places = 0
    for p in prices:
        if p is None:
            continue
        for value in (p.input, p.output, p.cache_read, p.cache_write):
            if value is not None:
                exponent = value.as_tuple().exponent
                assert isinstance(exponent, int)  # prices are finite
                places = max(places, -exponent)
    return places


def _units(value: Decimal, places: int) -> int:
    return int(_MONEY.scaleb(value, places))  # exact: the traps forbid rounding


def _rates(prices: Prices | None, places: int, cache: bool) -> tuple[int, int, int, int] | None:
    """(cold input, cached input, output, summary input) per token in money units:
    cached tokens at the cache-read price, the rest of the input at the cache-write
    price when caching is on (else, or when a price is not given, at the input price).
    None: no input or output price, so tokens only."""
    if prices is None or prices.input is None or prices.output is None:
        return None
    plain = _units(prices.input, places)
    read = plain if prices.cache_read is None else _units(prices.cache_read, places)
    write = plain if not cache or prices.cache_write is None else _units(prices.cache_write, places)
    return write, read, _units(prices.output, places), plain


# A row straight from its values: a NamedTuple's __new__ is a Python function with 36
# parameters, and a replay makes one row per turn per input.
_new_row = partial(tuple.__new__, TurnRow)


def replay(
    scenario: Scenario, turns: Sequence[Turn], options: ReplayOptions | None = None
) -> Replay:
    """Run ``turns`` through ``scenario`` (SPEC §12). Pure: same inputs, same replay."""
    opts = ReplayOptions() if options is None else options
    if not turns:
        raise ScenarioError([Problem("turns", "must hold at least one turn")])
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
    main_prices = opts.main_prices
    summary_prices = main_prices if opts.summary_prices is None else opts.summary_prices
    places = _places((main_prices, summary_prices))
    main_rates = _rates(main_prices, places, opts.cache)
    summary_rates = _rates(summary_prices, places, False)  # summary calls are never cached
    rate = opts.failure_rate
    rng = random.Random(opts.failure_seed) if rate is not None else None
    wrapper = opts.summary_wrapper_tokens
    ratio = opts.summary_ratio
    cache = opts.cache

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
    rows: list[TurnRow] = []
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
            if work_input > cap.safe_input:
                status, new_raw, work_input = "refused", 0, 0
            else:
                status = "recompress" if recompress else "run"
                target = cap.cap if ratio is None else ceil_mul(a + new_raw, ratio)
                written = min(cap.cap, target)
                a_after = written
                c_after = c + new_raw

        # Prompt cache: prefix | summary | raw tail | rest of F (SPEC §12, step 4).
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
        if status in ("run", "recompress"):
            version += 1
        main_units = (
            None
            if main_rates is None
            else (main_in - cached) * main_rates[0]
            + cached * main_rates[1]
            + main_out * main_rates[2]
        )
        summary_units = (
            None
            if summary_rates is None
            else work_input * summary_rates[3] + written * summary_rates[2]
        )
        if cumulative is not None:
            if main_units is None or summary_units is None:
                cumulative = None
            else:
                cumulative += main_units + summary_units
        cumulative_tokens += main_in + main_out + work_input + written
        rows.append(
            _new_row(
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
                    work_input,
                    written,
                    cumulative_tokens,
                    main_units,
                    summary_units,
                    cumulative,
                    places,
                    offered,
                    base,
                )
            )
        )
        h, c, a = h_after, c_after, a_after
    col = columns(rows)
    return Replay(scenario, opts, tuple(rows), _summarise(rows, col), MappingProxyType(col))


def _turn_scenario(
    base: Scenario, *, required: int, offered: int, uncovered: int, summary: int, backlog: int
) -> Scenario:
    """The scenario of one turn's request (SPEC §12): the base scenario with the turn's
    required input, the summary offered to loader and engine, the uncovered history, the
    summary's size and the backlog its round would read."""
    work = base.workload
    return Scenario(
        main_model=base.main_model,
        summary_model=base.summary_model,
        config=base.config,
        workload=Workload(
            required_tokens=required,
            summary_tokens=offered,
            engine_summary_tokens=offered,
            history_tokens=uncovered,
            summary_instruction_tokens=work.summary_instruction_tokens,
            previous_summary_tokens=summary,
            backlog_tokens=backlog,
            usage_baseline_tokens=work.usage_baseline_tokens,
            replay_since_baseline_tokens=work.replay_since_baseline_tokens,
        ),
        background=base.background,
        limits=base.limits,
        samples=base.samples,
    )


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


def columns(rows: Sequence[TurnRow]) -> dict[str, tuple[Any, ...]]:
    """The rows as columns, by ``TurnRow`` field name: ``zip(*rows)`` transposes in C,
    and sum, max, count and index over a column run in C too. The page redraws a
    500-turn replay per input; a generator or a comprehension per quantity was most of
    the time the summary and the charts took in Pyodide."""
    return dict(zip(TurnRow._fields, zip(*rows, strict=True), strict=True))


def _summarise(rows: Sequence[TurnRow], col: Mapping[str, tuple[Any, ...]]) -> ReplaySummary:
    status = col["status"]
    full = col["full_input"]
    peak = full.index(max(full))  # the first turn at the peak
    first_run = next((i for i, s in enumerate(status) if s in ("run", "recompress")), None)
    main_in = sum(col["main_input_billed"])
    cached = sum(col["cached_input"])
    places = rows[0].money_places
    cost_main = _decimal_of(None if None in col["main_units"] else sum(col["main_units"]), places)
    cost_summary = _decimal_of(
        None if None in col["summary_units"] else sum(col["summary_units"]), places
    )
    cost = _decimal_of(rows[-1].cumulative_units, places)
    per_turn = None
    if cost_main is not None and cost_summary is not None:
        # SPEC §8: per-turn cost ≈ main call + summary calls / the turns they serve;
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


# ---------------------------------------------------------------- parsing options


_OPTION_TOKENS = (
    "start_history",
    "start_covered",
    "start_summary",
    "summary_wrapper_tokens",
    "stable_prefix_tokens",
)
_OPTION_KEYS = (
    *_OPTION_TOKENS,
    "summary_ratio",
    "failure_rate",
    "failure_seed",
    "cache",
    "main_prices",
    "summary_prices",
)
_PRICE_KEYS = ("input", "output", "cache_read", "cache_write")
_MAX_PLACES = 30  # finer than any price or ratio, and keeps the exact arithmetic small
_MAX_PRICE = 10**9


def _decimal_places(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite
    digits = len(value.as_tuple().digits)
    return max(0, -exponent) if digits <= 40 else _MAX_PLACES + 1


def _tokens(raw: object, path: str, problems: list[Problem], low: int = 0) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int | Decimal):
        value = None
    elif isinstance(raw, Decimal):
        value = int(raw) if raw.is_finite() and raw == raw.to_integral_value() else None
    else:
        value = raw
    if value is None or not low <= value <= MAX_TOKENS:
        problems.append(Problem.of(path, f"must be an integer from {low} to 10^12", raw))
        return 0
    return value


def _decimal(raw: object) -> Decimal | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return Decimal(raw)
    if isinstance(raw, Decimal):
        return raw if raw.is_finite() else None
    if isinstance(raw, str):
        text = raw.strip()
        if not text or not all(ch in "0123456789.eE+-" for ch in text):
            return None
        try:
            value = Decimal(text)
        except ArithmeticError:
            return None
        return value if value.is_finite() else None
    return None


def _fraction_value(raw: object, path: str, problems: list[Problem], high: int) -> Decimal | None:
    value = _decimal(raw)
    if value is None or not 0 <= value <= high or _decimal_places(value) > _MAX_PLACES:
        bound = "1" if high == 1 else f"{high}"
        problems.append(
            Problem.of(
                path,
                f"must be a decimal from 0 to {bound} with at most {_MAX_PLACES} decimal "
                "places, as a string or an exact JSON number",
                raw,
            )
        )
        return None
    return value


def parse_prices(obj: object, path: str, problems: list[Problem]) -> Prices | None:
    """``{"input": "0.000003", "output": …, "cache_read": …, "cache_write": …}``: money
    per single token, exact decimals (strings or exact JSON numbers), each optional."""
    if obj is None:
        return None
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, "must be a JSON object of per-token prices or null", obj))
        return None
    values: dict[str, Decimal | None] = {}
    for key in obj:
        if key not in _PRICE_KEYS:
            problems.append(
                Problem.of(
                    f"{path}.{key}", f"is not a price (use {', '.join(_PRICE_KEYS)})", obj[key]
                )
            )
    for key in _PRICE_KEYS:
        raw = obj.get(key)
        if raw is None:
            values[key] = None
            continue
        value = _decimal(raw)
        if value is None or not 0 <= value <= _MAX_PRICE or _decimal_places(value) > _MAX_PLACES:
            problems.append(
                Problem.of(
                    f"{path}.{key}",
                    "must be a decimal from 0 to 10^9 (money per token) with at most "
                    f"{_MAX_PLACES} decimal places, as a string or an exact JSON number, or null",
                    raw,
                )
            )
            continue
        values[key] = value
    return Prices(**values)


def parse_options(obj: object) -> ReplayOptions:
    """Validate replay options (every problem at once); omitted keys take the defaults."""
    problems: list[Problem] = []
    if not isinstance(obj, dict):
        raise ScenarioError([Problem.of("options", "must be a JSON object", obj)])
    for key in getattr(obj, "duplicates", ()):
        problems.append(Problem(f"options.{key}", "appears more than once"))
    for key in obj:
        if key not in _OPTION_KEYS:
            problems.append(Problem.of(f"options.{key}", "is not a replay option", obj[key]))
    values: dict[str, Any] = {}
    for key in _OPTION_TOKENS:
        if key in obj:
            values[key] = _tokens(obj[key], f"options.{key}", problems)
    if obj.get("summary_ratio") is not None:
        values["summary_ratio"] = _fraction_value(
            obj["summary_ratio"], "options.summary_ratio", problems, 1
        )
    if obj.get("failure_rate") is not None:
        values["failure_rate"] = _fraction_value(
            obj["failure_rate"], "options.failure_rate", problems, 1
        )
    if "failure_seed" in obj:
        seed = obj["failure_seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            problems.append(
                Problem.of("options.failure_seed", "must be an integer from 0 to 2^63 - 1", seed)
            )
        else:
            values["failure_seed"] = seed
    if "cache" in obj:
        if isinstance(obj["cache"], bool):
            values["cache"] = obj["cache"]
        else:
            problems.append(Problem.of("options.cache", "must be true or false", obj["cache"]))
    for key in ("main_prices", "summary_prices"):
        if key in obj:
            values[key] = parse_prices(obj[key], f"options.{key}", problems)
    if not problems and values.get("start_covered", 0) > values.get("start_history", 0):
        problems.append(
            Problem(
                "options.start_covered",
                "must be at most options.start_history (coverage is part of history), "
                f"got {values['start_covered']:,} > {values.get('start_history', 0):,}",
            )
        )
    if problems:
        raise ScenarioError(problems)
    return ReplayOptions(**values)


def parse_options_json(text: str | bytes) -> ReplayOptions:
    return parse_options(load_json(text, "options"))


def parse_changes(
    obj: object, path: str, problems: list[Problem]
) -> tuple[tuple[str, object], ...]:
    """A turn's config changes: ``{"config.summary_max_tokens": 8192}`` or nested
    ``{"config": {"summary_max_tokens": 8192}}``; supported overrides only (SPEC §9)."""
    if not isinstance(obj, dict):
        problems.append(Problem.of(path, "must be a JSON object of supported overrides", obj))
        return ()
    flat: list[tuple[str, object]] = []
    for key, value in obj.items():
        if isinstance(value, dict):
            flat.extend((f"{key}.{k}", v) for k, v in value.items())
        else:
            flat.append((key, value))
    out: dict[str, object] = {}
    for key, raw in flat:
        override = _CHANGEABLE.get(key)
        if override is None:
            problems.append(
                Problem.of(f"{path}.{key}", "is not a supported override (SPEC §9)", raw)
            )
            continue
        try:
            out[key] = parse_field(override.spec, raw)
        except ScenarioError as exc:
            problems.extend(Problem(f"{path}.{p.path}", p.rule, p.value) for p in exc.problems)
    return tuple(out.items())
