"""A replay as a table for people (``replay --format table``, the default on a
terminal): per turn the log's request and the modelled one, then the ledger, the
measured usage with its cost, and the modelled cost beside it (docs/replay.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from budgetcore.messages import t
from budgetcore.replay.asrun import AsRun, error_stats, ratio_text, relative
from budgetcore.replay.logs.agents import agent
from budgetcore.replay.logs.claude_advisor import advisor_text
from budgetcore.replay.logs.model import ParsedLog, folder_lines
from budgetcore.replay.logs.session import SessionRun, agent_totals, folder_usage, may_have_cost
from budgetcore.replay.logs.tally import SUMMED, TOTALS
from budgetcore.replay.logs.usage import MeasuredUsage, ModelUsage
from budgetcore.units import counted, format_percent, money_text

if TYPE_CHECKING:
    from budgetcore.replay.model import Replay

__all__ = ["write_table"]

Write = Callable[[str], object]


def _agent_name(key: str) -> str:
    found = agent(key)
    return key if found is None else found.name


def _n(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def _grid(head: Sequence[str], rows: Sequence[Sequence[str]], write: Write, left: int = 1) -> None:
    widths = [len(h) for h in head]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.ljust(widths[i]) if i < left else c.rjust(widths[i]) for i, c in enumerate(cells)
        ]
        return "  " + "  ".join(parts).rstrip() + "\n"

    write(line(head))
    for row in rows:
        write(line(row))


def _turns(result: Replay, log: ParsedLog | None, series: str | None, write: Write) -> None:
    chosen = None if log is None else log.pick(series)
    compacted = set() if chosen is None else {c.after_turn for c in chosen.compactions}
    requests = () if chosen is None else chosen.requests
    head = ["turn"]
    if chosen is not None:
        head += ["log context", "log output"]
    head += ["full input", "K?", "status", "unseen", "cost"]
    if result.timed:
        head += ["run fate", "tries"]
    rows = []
    for i, r in enumerate(result.rows):
        row = [f"{r.turn:,}"]
        if chosen is not None:
            req = requests[i] if i < len(requests) else None
            mark = " ✂" if r.turn in compacted else ""
            row += [
                _n(None if req is None else req.context),
                _n(None if req is None else req.output) + mark,
            ]
        row += [
            _n(r.full_input),
            "yes" if r.trigger_reached else "",
            r.status,
            _n(r.unseen) if r.unseen else "",
            money_text(r.cost) if r.cost is not None else _n(r.main_input_billed),
        ]
        if result.timed:
            unknown = " (1 cut)" if r.run_unknown_tries else ""
            row += [r.run_fate or "", f"{r.run_tries}{unknown}" if r.run_fate else ""]
        rows.append(row)
    if chosen is not None:
        write("Turns (one per request on the replayed branch; ✂ the log compacted after it)\n")
    else:
        write("Turns\n")
    _grid(head, rows, write, left=1)


def _share(value: Fraction | None) -> str:
    return "unknown" if value is None else format_percent(value)


def _cost(value: Decimal | None, main: Decimal | None) -> str:
    """Money, or why there is none: no prices at all, or a try whose usage is unknown."""
    if value is None and main is None:
        return "no prices (tokens only)"
    return money_text(value)


def _summary(result: Replay, write: Write) -> None:
    """The replay's summary for people (the exact values are in the JSON output)."""
    s = result.summary
    write("Summary\n")
    lines = [
        ("turns", _n(s.turns)),
        ("summary runs (recompresses)", f"{s.runs:,} ({s.recompresses:,})"),
        ("refused runs / rejected requests", f"{s.refusals:,} / {s.rejected:,}"),
        ("turns at or above K", _n(s.turns_at_or_above_k)),
        ("turns with unseen history (peak)", f"{s.turns_with_unseen:,} ({s.peak_unseen:,})"),
        (
            "peak full input (M)",
            f"{s.peak_full_input:,} at turn {s.peak_turn:,} ({s.main_safe_input_at_peak:,})",
        ),
        ("main tokens in / out", f"{s.main_input_tokens:,} / {s.main_output_tokens:,}"),
        (
            "summary tokens in / out",
            f"{_n(s.summary_input_tokens)} / {_n(s.summary_output_tokens)}",
        ),
        ("cost (main + summary)", _cost(s.cost, s.cost_main)),
    ]
    if s.timed:
        rate = "—" if s.publish_rate is None else format_percent(s.publish_rate)
        lines += [
            ("candidates: published / discarded", f"{s.published:,} / {s.discarded:,} ({rate})"),
            ("abandoned (a timeout) / failed", f"{s.abandoned:,} / {s.failed:,}"),
            (
                "turns with a run in flight / breaker open",
                f"{s.in_flight_turns:,} / {s.breaker_open_turns:,}",
            ),
            ("tries (cut by a timeout)", f"{s.tries:,} ({s.unknown_tries:,})"),
            (
                "discarded: tokens, cost, share of summary tokens",
                f"{_n(s.discarded_tokens)}, {money_text(s.discarded_cost)}, "
                f"{_share(s.discarded_token_share)}",
            ),
            (
                "resends: tokens, cost, share of summary tokens",
                f"{_n(s.retry_tokens)}, {money_text(s.retry_cost)}, {_share(s.retry_token_share)}",
            ),
        ]
    width = max(len(k) for k, _ in lines)
    for key, value in lines:
        write(f"  {key.ljust(width)}  {value}\n")


def _ledger(log: ParsedLog, write: Write) -> None:
    write("Ledger (every line of every file; the counts add up to the lines read)\n")
    for f in log.ledger:
        mark = "" if f.accounted == f.lines else f"  (MISMATCH: {f.accounted:,} accounted)"
        write(f"  {f.name or 'log'}: {f.lines:,} lines{mark}\n")
        for s, on, off in f.requests:
            if s == TOTALS:  # a totals-only agent's per-model totals: not requests
                write(f"    session totals (not requests): {counted(on + off, 'line')}\n")
                continue
            if s == SUMMED:  # messages summing several requests' usage (Cline's)
                write(
                    "    summed usage (billed, not requests, not replayed): "
                    f"{counted(on + off, 'line')}\n"
                )
                continue
            write(f"    requests, {s}: {on:,} on the replayed branch, {off:,} on abandoned ones\n")
        for kind, n in f.duplicates:
            write(f"    copies folded ({kind}): {n:,}\n")
        if f.entries:
            parts = ", ".join(f"{k} {n:,}" for k, n in f.entries)
            write(f"    not requests: {parts}\n")
        if f.blank:
            write(f"    blank: {f.blank:,}\n")
        if f.malformed:
            nums = ", ".join(f"{n:,}" for n in f.malformed[:20])
            more = f" and {len(f.malformed) - 20:,} more" if len(f.malformed) > 20 else ""
            write(f"    malformed: {len(f.malformed):,} (line numbers: {nums}{more})\n")
        if f.orphans:
            nums = ", ".join(f"{n:,}" for n in f.orphans[:20])
            write(f"    parent not in the file, continued from the entry before: lines {nums}\n")
    calls, advised = advisor_text(log, "en")
    if calls:  # billed at the response's line, beside its request: no line of their own
        write(f"  {advised}\n")


def _requests_text(n: int | None) -> str:
    """A request count, or "unknown" where the log keeps totals and no requests (it
    read 0, as if none had been made)."""
    return "unknown" if n is None else f"{n:,}"


def _usage_rows(models: Sequence[ModelUsage], total: MeasuredUsage) -> list[list[str]]:
    rows = []
    for m in models:
        name = m.model or "(no model)"
        if m.resolved is not None and m.resolved != m.model:
            name += f" → {m.resolved}"
        elif m.resolved is None and m.model is not None:  # "(no model)" says it all
            name += " (not in the registry)"
        rows.append(_usage_row(name, m))
    rows.append(_usage_row("total", total))
    return rows


def _usage_row(name: str, m: ModelUsage | MeasuredUsage) -> list[str]:
    """One row of the usage table, a model's or the total: its requests, each kind of
    token and its cost (unknown, with the known part, where part of it has no price)."""
    u = m.usage
    cost = money_text(m.cost)
    if m.partly_priced:
        cost = f"unknown (≥ {money_text(m.known_cost)})"
    return [
        name,
        _requests_text(m.requests),
        f"{u.input:,}",
        f"{u.cache_write_5m:,}",
        f"{u.cache_write_1h:,}",
        f"{u.cache_read:,}",
        f"{u.output:,}",
        f"{u.reasoning:,}",
        cost,
    ]


_USAGE_HEAD = [
    "model",
    "requests",
    "input",
    "cache write 5m",
    "cache write 1h",
    "cache read",
    "output",
    "reasoning",
    "cost",
]


def _measured(m: MeasuredUsage, write: Write) -> None:
    write("Measured usage (what the log says every billed request used, each once)\n")
    _grid(_USAGE_HEAD, _usage_rows(m.models, m), write)
    if m.logged_cost is not None:  # the page's sentence (MeasuredUsage.logged_cost_text)
        write(f"  {m.logged_cost_text(money_text(m.logged_cost), 'en')}\n")
    if m.summed:  # the page's sentence
        write(f"  {t('replay.logs.summed', 'en', tokens=f'{m.summed:,}')}\n")
    if m.unread:  # the page's sentence (MeasuredUsage.incomplete_text)
        write(f"  {m.incomplete_text('en')}\n")


def _session(run: SessionRun, write: Write) -> None:
    log = run.log
    if log is None:
        if run.result is not None:  # generated or JSON Lines turns: no log
            _turns(run.result, None, None, write)
            _summary(run.result, write)
            write("\n")
            return
        write(f"Session {run.name}: not read\n")
        for p in run.error:
            write(f"  {p}\n")
        return
    files = len(log.files)
    extra = f", {files} files" if files > 1 else ""
    write(f"Session {run.name or 'log'} ({_agent_name(log.format)}{extra})\n")
    if log.totals_only:
        write(
            f"  Totals only: {log.totals_only}. It cannot be replayed turn by turn; "
            "its totals are measured, and no request is counted.\n"
        )
    if log.model_assumed:
        write(f"  Model assumed {log.model_assumed}.\n")
    if log.lacks:  # the page's sentence
        write(f"  {t(log.lacks, 'en')}\n")
    if run.as_run is not None:
        _as_run(run.as_run, write)
    m = run.model
    if m is not None:
        res = m.resolution
        c = m.scenario.main_model
        if m.known and res is not None and res.model is not None:
            write(
                f"Scenario: the default one with the log's main model {m.logged} "
                f"(registry {res.model.name}, {res.how}): I {c.input_tokens:,}, "
                f"O {c.output_tokens:,}\n"
            )
        elif m.logged is not None:
            write(
                f"Scenario: the default one; the log's main model {m.logged} is not in "
                f"the registry (I {c.input_tokens:,}, O {c.output_tokens:,})\n"
            )
        else:
            write("Scenario: the default one; the log names no model\n")
    if run.result is not None:
        _turns(run.result, log, run.series, write)
    _ledger(log, write)
    if run.measured is not None:
        _measured(run.measured, write)
    for name, n in run.elsewhere:
        write(
            f"  Not billed here: requests of this session billed in session {name}: {n:,} "
            "(the same response in both files, as a resumed session writes the earlier "
            "one's again)\n"
        )
    if run.result is not None:
        _summary(run.result, write)
    if run.result is not None and run.measured is not None:
        s = run.result.summary
        last = run.result.rows[-1]
        k, cap = last.trigger_tokens, last.summary_cap
        if run.as_run is not None:
            write(run.as_run.line() + "\n")
        if run.what_if is not None:
            write(run.what_if.line() + "\n")
            write(
                "  (the engine's own bill of the replayed series, main requests only and "
                "cached by its own layout, follows)\n"
            )
        elif run.as_run is not None and run.as_run.caveat:
            write(
                f"  The backtest is no baseline ({run.as_run.caveat}): read the figures "
                "below as the model's, not the session's.\n"
            )
        elif run.as_run is not None and run.as_run.trusted is not True:
            write(
                "  The backtest is not within 5 % of this session's bill: read the "
                "figures below as the model's, not the session's.\n"
            )
        write(
            f"This session cost {run.measured.cost_mark(money_text(run.measured.cost), 'en')}"
            f" as logged; with K {k:,} "
            f"and S {cap:,} the model says {money_text(s.cost)}"
            + (
                ""
                if s.cost is not None
                else " (no prices: tokens only)"
                if run.result.options.main_prices is None
                else f" ({s.unknown_tries:,} summary tries cut by a timeout used "
                "tokens no one knows)"
            )
            + f" ({_count(s.turns, 'turn')}, {_count(s.runs, 'summary run')}, peak full input "
            f"{s.peak_full_input:,}).\n"
        )
    write("\n")


def _as_run(a: AsRun, write: Write) -> None:
    """The backtest first (docs/spec.md §17): the bill, the model of it, the evidence."""
    write(a.line() + "\n")
    if a.caveat:
        write(f"  no baseline for a what-if, whatever its error: {a.caveat}\n")
    window = "unknown" if a.window is None else f"{a.window:,}"
    trigger = "unknown" if a.trigger is None else f"{a.trigger:,}"
    write(
        f"  runtime {a.runtime_title}; window {window} ({a.window_source}); its trigger "
        f"{trigger} ({a.trigger_rule}); settings: {a.settings_source}\n"
    )
    if a.cache.known:
        write(
            f"  cache: {a.cache.provider} rules ({a.cache.source}); calibrated only on each "
            "series' first request (the stable prefix it read)\n"
        )
    else:
        write(f"  cache: not predicted: {a.cache.source}\n")
    for s in a.series:
        part = s.cache_rule_part()
        if part is not None:
            key, params = part
            shown = {k: f"{v:,}" for k, v in params.items()}
            write(f"  {t(key, 'en', name=s.name, **shown)}\n")
    rows = []
    for s in a.series:
        med, top = error_stats(s.cache_errors)
        rows.append(
            [
                s.name + (" (as logged)" if s.billed_as_logged else ""),
                f"{s.requests:,}",
                f"{s.stable_prefix:,}",
                money_text(s.measured.cost),
                money_text(s.modelled.cost),
                ratio_text(relative(s.modelled.cost, s.measured.cost)),
                "—" if med is None else f"{med:,}",
                "—" if top is None else f"{top:,}",
            ]
        )
    _grid(
        ["series", "requests", "prefix", "measured", "modelled", "error", "cache err med", "max"],
        rows,
        write,
        left=1,
    )

    def nums(values: Sequence[int]) -> str:
        return ", ".join(f"{n:,}" for n in values) if values else "none"

    write(
        f"  compactions after request: logged {nums(a.logged_compactions)}; the runtime's "
        f"rule predicts {nums(a.predicted_compactions)}"
        + (f"; manual {nums(a.manual_compactions)}" if a.manual_compactions else "")
        + "\n"
    )


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}" + ("" if n == 1 else "s")


def write_table(runs: Sequence[SessionRun], write: Write, *, folder: bool) -> None:
    for run in runs:
        _session(run, write)
    if not folder:
        return
    ok = [r for r in runs if r.log is not None]
    noun = "session" if len(runs) == 1 else "sessions"  # "Total: 1 sessions" read wrong
    write(f"Total: {len(runs):,} {noun} ({len(runs) - len(ok):,} not read)\n")
    unread = sum(r.lines or 0 for r in runs if r.log is None)
    head = ["session", "lines", "requests", "turns", "measured cost", "modelled cost"]
    rows = []
    for r in ok:
        assert r.log is not None
        lines = sum(f.lines for f in r.log.ledger)
        turns = "—" if r.result is None else f"{r.result.summary.turns:,}"
        modelled = "—" if r.result is None else money_text(r.result.summary.cost)
        measured = (
            "—" if r.measured is None else r.measured.cost_mark(money_text(r.measured.cost), "en")
        )
        reqs = "—" if r.measured is None else _requests_text(r.measured.requests)
        rows.append([r.name, f"{lines:,}", reqs, turns, measured, modelled])
    for r in runs:  # not replayed: its lines where it was read to its end
        if r.log is None:
            shown = "—" if r.lines is None else f"{r.lines:,}"
            rows.append([r.name, shown, "0" if r.lines is not None else "—", "—", "—", "—"])
    total = folder_lines(r.log for r in ok) + unread
    rows.append(["total", f"{total:,}", "", "", "", ""])
    _grid(head, rows, write)
    merged = folder_usage(runs)
    _measured(merged, write)
    if unread_runs := may_have_cost(runs):
        write(
            f"  The total cost is unknown: {counted(unread_runs, 'session')} could not be read, "
            f"and what {'it' if unread_runs == 1 else 'they'} cost no one knows.\n"
        )
    if free := sum(1 for r in runs if r.log is None and r.costs_nothing):
        hold = "holds" if free == 1 else "hold"
        write(
            f"  {counted(free, 'session')} not read {hold} nothing that may carry a bill "
            "(every line read, none a response or a usage record): the total counts them as"
            " $0.\n"
        )
    by_agent = agent_totals(runs, merged)
    if len(by_agent) > 1:
        write("By agent\n")
        rows = []
        for key, n, unread, m in by_agent:
            name = _agent_name(key) if key else "not read (agent unknown)"
            sessions = f"{n:,}" if not unread or not key else f"{n:,} ({unread:,} not read)"
            cost = money_text(m.cost)
            if m.cost is None and m.known_cost:
                cost = f"unknown (≥ {money_text(m.known_cost)})"
            cost = m.cost_mark(cost, "en")
            rows.append([name, sessions, _requests_text(m.requests), cost])
        _grid(["agent", "sessions", "requests", "measured cost"], rows, write)
