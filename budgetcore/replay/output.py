"""A replay as text (``python -m budgetcore replay``): JSON Lines, CSV, or a table for
people (docs/replay.md, "Output").

JSON Lines: one object per turn (the keys of :data:`budgetcore.replay.ROW_KEYS`), then
one last line ``{"summary": {...}}``. CSV: a header and one row per turn, then the
summary as comment lines ``# key,value``. Money is an exact decimal string; a value that
is unknown (no prices) is ``null`` in JSON and empty in CSV. With an imported log, every
row also carries the log's own numbers for that request (``log_context``,
``log_output``, ``log_compacted``) and the summary a ``log`` object: the format, the
series, the ledger of every file, the measured usage and its cost, and the log's
compactions. Several sessions (a folder): each session's rows carry ``session``, each
session ends with its summary line, and a last ``{"total": {...}}`` line adds them up.

Rows are written one at a time (``write``), never joined into one string.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from budgetcore.replay.logs.claude_advisor import ADVISOR
from budgetcore.replay.logs.model import FileLedger, ParsedLog, folder_lines
from budgetcore.replay.logs.session import SessionRun, agent_totals, folder_usage
from budgetcore.replay.logs.tally import SUMMED
from budgetcore.replay.logs.usage import MeasuredUsage, merge_usage

if TYPE_CHECKING:
    from budgetcore.replay.asrun import AsRun
    from budgetcore.replay.model import Replay

__all__ = [
    "LOG_ROW_KEYS",
    "ledger_dict",
    "log_dict",
    "row_dicts",
    "session_jsonl",
    "summary_dict",
    "to_csv",
    "to_jsonl",
    "total_dict",
    "write_sessions",
]

LOG_ROW_KEYS: tuple[str, ...] = ("log_context", "log_output", "log_compacted")
Write = Callable[[str], object]


def row_dicts(
    result: Replay, log: ParsedLog | None = None, series: str | None = None
) -> Iterable[dict[str, Any]]:
    from budgetcore.replay.model import row_dicts_of  # noqa: PLC0415 - loaded with a replay

    chosen = None if log is None else log.pick(series)
    compacted = set() if chosen is None else {c.after_turn for c in chosen.compactions}
    requests = () if chosen is None else chosen.requests
    for i, row in enumerate(row_dicts_of(result.rows, result.timed)):
        if chosen is not None and i < len(requests):
            req = requests[i]
            row["log_context"] = req.context
            row["log_output"] = req.output
            row["log_compacted"] = row["turn"] in compacted
        yield row


def ledger_dict(f: FileLedger) -> dict[str, Any]:
    return {
        "file": f.name,
        "lines": f.lines,
        "requests": [{"series": s, "replayed": on, "abandoned": off} for s, on, off in f.requests],
        "duplicates": dict(f.duplicates),
        "entries": dict(f.entries),
        "blank": f.blank,
        "malformed": list(f.malformed),
        "orphans": list(f.orphans),
        "accounted": f.accounted,
    }


def log_dict(
    log: ParsedLog,
    series: str | None = None,
    measured: MeasuredUsage | None = None,
    elsewhere: Sequence[tuple[str, int]] = (),
) -> dict[str, Any]:
    chosen = log.pick(series)
    out: dict[str, Any] = {
        "session": log.name,
        "format": log.format,
        "series": chosen.name,
        "other_series": [
            # Claude Code's advisor calls are billed, never turns: the reader keeps them
            # where a series keeps requests off the replayed branch, which they are not
            # (said "abandoned": 3, they read as a branch given up).
            {"name": s.name, "requests": len(s.abandoned), "abandoned": 0}
            if s.name == ADVISOR
            else {"name": s.name, "requests": len(s.requests), "abandoned": len(s.abandoned)}
            for s in log.series
            # Summed-usage messages are no series of requests (measured "summed_tokens").
            if s is not chosen and s.name != SUMMED
        ],
        # A totals-only session has no request to count (its totals sit where the reader
        # puts abandoned requests; they read "requests": 0, "abandoned": 1): unknown.
        "requests": None if log.totals_only else len(chosen.requests),
        "abandoned": None if log.totals_only else len(chosen.abandoned),
        "models": list(log.models()),
        "main_model": log.main_model(),
        "context_window": log.window,
        "duplicates_dropped": log.duplicates,
        # Why the session keeps per-model totals only and cannot be replayed turn by
        # turn (Goose, Droid); None when it holds requests.
        "totals_only": log.totals_only or None,
        # Why the model is an assumption, not read from the log (Kimi CLI); None when
        # the log names it.
        "model_assumed": log.model_assumed or None,
        # What the session's file lacks that its agent writes elsewhere (OpenCode's
        # message table alone), the CLI's sentence; None when nothing is missing.
        "lacks": _lacks_text(log.lacks) if log.lacks else None,
        "skipped_lines": [str(p) for p in log.skipped],
        "ledger": [ledger_dict(f) for f in log.ledger],
        "compactions": [
            {
                "line": c.line,
                "after_turn": c.after_turn,
                "trigger": c.trigger,
                "pre_tokens": c.pre_tokens,
                "post_tokens": c.post_tokens,
            }
            for c in chosen.compactions
        ],
    }
    if measured is not None:
        out["measured"] = measured.as_dict()
        # Requests on this session's branch that another session of the folder bills
        # (a resumed session's copies): not in ``measured``.
        out["billed_elsewhere"] = [{"session": n, "requests": k} for n, k in elsewhere]
    return out


def _model_dict(run: SessionRun) -> dict[str, Any] | None:
    m = run.model
    if m is None:
        return None
    res = m.resolution
    entry = None if res is None or res.model is None else res.model
    return {
        "logged": m.logged,
        "registry": None if entry is None else entry.name,
        "how": "none" if res is None else res.how,
        "input_tokens": m.window[0],
        "output_tokens": m.window[1],
        "from_log": entry is not None,
    }


def summary_dict(
    result: Replay | None,
    log: ParsedLog | None = None,
    series: str | None = None,
    run: SessionRun | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {} if result is None else result.summary.as_dict()
    if log is not None:
        out["log"] = (
            log_dict(log, series)
            if run is None
            else log_dict(log, series, run.measured, run.elsewhere)
        )
    if run is not None and run.model is not None:
        out["scenario_model"] = _model_dict(run)
    if run is not None and run.as_run is not None:
        out["as_run"] = run.as_run.as_dict()
    if run is not None and run.what_if is not None:
        out["what_if"] = run.what_if.as_dict()
    return out


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def total_dict(runs: Sequence[SessionRun]) -> dict[str, Any]:
    """What a folder's sessions add up to."""
    ok = [r for r in runs if r.log is not None]
    measured = folder_usage(runs)
    modelled: Decimal | None = Decimal(0)
    turns = 0
    for r in ok:
        if r.result is None:
            continue
        turns += r.result.summary.turns
        cost = r.result.summary.cost
        modelled = None if cost is None or modelled is None else modelled + cost
    replayed = [r for r in ok if r.result is not None]
    return {
        "sessions": len(runs),
        "sessions_read": len(ok),
        # A session not read that holds nothing that may carry a bill (costs_nothing
        # true) leaves the measured cost known; any other makes it unknown.
        "sessions_unreadable": [
            {
                "session": r.name,
                "problems": [str(p) for p in r.error],
                "lines": r.lines,
                "costs_nothing": r.costs_nothing,
            }
            for r in runs
            if r.error
        ],
        "lines": folder_lines(r.log for r in ok) + sum(r.lines or 0 for r in runs if r.log is None),
        "requests": measured.requests,
        "turns_replayed": turns,
        "modelled_cost": _money(modelled) if replayed else None,
        "measured": measured.as_dict(),
        # One total per agent (a mixed folder), a session not read counted as its
        # agent's where the read told whose it is; "agent" None: the others not read.
        "agents": [
            {
                "agent": key or None,
                "sessions": n,
                "sessions_not_read": unread,
                "requests": m.requests,
                "cost": _money(m.cost),
                "known_cost": _money(m.known_cost),
                **_unread(m.unread),
            }
            for key, n, unread, m in agent_totals(runs, measured)
        ],
        "as_run": _as_run_total([r.as_run for r in ok if r.as_run is not None]),
    }


def _unread(lines: int) -> dict[str, int]:
    """The malformed lines that may have carried a bill, where there are any (the
    measured cost beside it may be incomplete: MeasuredUsage.unread); every other
    output keeps its keys."""
    return {"unread_billing_lines": lines} if lines else {}


def _as_run_total(parts: Sequence[AsRun]) -> dict[str, Any] | None:
    """The sessions' backtests added up: one cost rule on both sides, so the sum of the
    measured costs is the total's measured cost."""
    if not parts:
        return None
    from budgetcore.replay.asrun import relative  # noqa: PLC0415

    measured = merge_usage(a.measured for a in parts)
    modelled = merge_usage(a.modelled for a in parts)
    ratio = relative(modelled.cost, measured.cost)
    return {
        "sessions": len(parts),
        "requests": measured.requests,
        "measured_cost": _money(measured.cost),
        **_unread(measured.unread),
        "modelled_cost": _money(modelled.cost),
        "ratio": None if ratio is None else str(ratio),
        "within_5_percent": None if ratio is None else abs(ratio) <= Decimal("0.05"),
        "sessions_outside_5_percent": sum(1 for a in parts if a.trusted is False),
        # Within 5 % or not, a session whose cache no rule predicts (AsRun.caveat).
        "sessions_without_baseline": sum(1 for a in parts if a.caveat),
        # The measured usage bills them; both sides here leave them out (AsRun).
        **_summed_left_out(sum(a.summed_left_out for a in parts)),
    }


def _summed_left_out(tokens: int) -> dict[str, int]:
    """Only where a log holds summed-usage messages: every other output keeps its keys."""
    return {"summed_tokens_left_out": tokens} if tokens else {}


# ------------------------------------------------------------------ JSON Lines, CSV


def session_jsonl(run: SessionRun, *, folder: bool) -> str:
    """One session's JSON Lines, as :func:`write_sessions` writes them: what a folder's
    read keeps of a session whose output nothing read later can change (session.kept)."""
    out: list[str] = []
    _jsonl_session(run, out.append, folder)
    return "".join(out)


def _jsonl_session(run: SessionRun, write: Write, folder: bool) -> None:
    if run.jsonl:  # written once measured (session.kept)
        write(run.jsonl)
        return
    if run.log is None and run.result is None:
        out = {"session": run.name, "error": [str(p) for p in run.error], "lines": run.lines}
        write(json.dumps(out) + "\n")
        return
    if run.result is not None:
        for row in row_dicts(run.result, run.log, run.series):
            shown = {"session": run.name, **row} if folder else row
            write(json.dumps(shown) + "\n")
    head = {"session": run.name} if folder else {}
    summary = summary_dict(run.result, run.log, run.series, run)
    write(_as_text({**head, "summary": summary}) + "\n")


def write_sessions(runs: Sequence[SessionRun], fmt: str, write: Write, *, folder: bool) -> None:
    """Every session's output (and the total of a folder) in ``fmt``, ``jsonl`` or
    ``csv`` (the table for people is the CLI's: ``cli.replay_table``)."""
    if fmt == "csv":
        _csv_sessions(runs, write, folder)
        return
    for run in runs:
        _jsonl_session(run, write, folder)
    if folder:
        write(_as_text({"total": total_dict(runs)}) + "\n")


#: A summary's or a total's JSON line, its text as written (``ensure_ascii=False``):
#: ``json.dumps`` with that argument made an encoder for every line, and its check for
#: cycles looked at every dict and list of it, which are built here and hold none (about
#: an eighth of a small session's line: docs/performance.md, issue 40's fifth many-small
#: round). The same text, byte for byte.
_as_text = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _csv_sessions(runs: Sequence[SessionRun], write: Write, folder: bool) -> None:
    from budgetcore.replay.model import ROW_KEYS, TIMING_ROW_KEYS  # noqa: PLC0415

    buf = io.StringIO()
    import csv  # noqa: PLC0415 - only the csv format loads it

    writer = csv.writer(buf, lineterminator="\n")
    has_log = any(r.log is not None for r in runs)
    timed = any(r.result is not None and r.result.timed for r in runs)
    keys = (
        (["session"] if folder else [])
        + list(ROW_KEYS)
        + (list(TIMING_ROW_KEYS) if timed else [])
        + (list(LOG_ROW_KEYS) if has_log else [])
    )

    def flush() -> None:
        write(buf.getvalue())
        buf.seek(0)
        buf.truncate()

    writer.writerow(keys)
    for run in runs:
        if run.result is not None:
            for row in row_dicts(run.result, run.log, run.series):
                if folder:
                    row["session"] = run.name
                writer.writerow([_cell(row.get(k)) for k in keys])
                if buf.tell() > 1 << 16:
                    flush()
        summary = summary_dict(run.result, run.log, run.series, run)
        if run.error:
            summary = {"error": [str(p) for p in run.error], "lines": run.lines}
        prefix = f"# {run.name}: " if folder else "# "
        for key, value in summary.items():
            shown = (
                json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
            )
            buf.write(f"{prefix}{key},{_cell(shown)}\n")
    if folder:
        buf.write(f"# total,{json.dumps(total_dict(runs), ensure_ascii=False)}\n")
    flush()


def _one(result: Replay, log: ParsedLog | None, series: str | None) -> SessionRun:
    return SessionRun("" if log is None else log.name, log, series, result)


def to_jsonl(result: Replay, log: ParsedLog | None = None, series: str | None = None) -> str:
    out: list[str] = []
    write_sessions([_one(result, log, series)], "jsonl", out.append, folder=False)
    return "".join(out)


def to_csv(result: Replay, log: ParsedLog | None = None, series: str | None = None) -> str:
    out: list[str] = []
    write_sessions([_one(result, log, series)], "csv", out.append, folder=False)
    return "".join(out)


def _lacks_text(key: str) -> str:
    """What a session's file lacks (ParsedLog.lacks), in English: the catalogue is
    loaded only for such a session (not by every ``replay --usage``)."""
    from budgetcore.messages import t  # noqa: PLC0415

    return t(key, "en")
