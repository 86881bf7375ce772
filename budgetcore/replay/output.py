"""A replay as text: JSON Lines or CSV rows and its summary (``python -m budgetcore replay``).

JSON Lines: one object per turn (the keys of :data:`budgetcore.replay.ROW_KEYS`), then
one last line ``{"summary": {...}}``. CSV: a header and one row per turn, then the
summary as comment lines ``# key,value`` (most CSV readers skip them with a comment
option). Money is an exact decimal string; a value that is unknown (no prices) is
``null`` in JSON and empty in CSV. With an imported log, every row also carries the
log's own numbers for that request (``log_context``, ``log_output``, ``log_compacted``:
the log compacted after this turn) and the summary a ``log`` object: format, series,
requests, duplicates dropped, malformed lines skipped, and the log's compactions.
No message text exists to print: the parser never kept any.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from budgetcore.replay.logs import ParsedLog
from budgetcore.replay.model import ROW_KEYS, Replay

__all__ = ["LOG_ROW_KEYS", "log_dict", "row_dicts", "summary_dict", "to_csv", "to_jsonl"]

LOG_ROW_KEYS: tuple[str, ...] = ("log_context", "log_output", "log_compacted")


def row_dicts(
    result: Replay, log: ParsedLog | None = None, series: str | None = None
) -> list[dict[str, Any]]:
    rows = [r.as_dict() for r in result.rows]
    if log is not None:
        chosen = log.pick(series)
        compacted = {c.after_turn for c in chosen.compactions}
        for row, req in zip(rows, chosen.requests, strict=False):
            row["log_context"] = req.context
            row["log_output"] = req.output
            row["log_compacted"] = row["turn"] in compacted
    return rows


def log_dict(log: ParsedLog, series: str | None = None) -> dict[str, Any]:
    chosen = log.pick(series)
    return {
        "format": log.format,
        "series": chosen.name,
        "other_series": [
            {"name": s.name, "requests": len(s.requests)} for s in log.series if s is not chosen
        ],
        "requests": len(chosen.requests),
        "models": list(log.models()),
        "context_window": log.window,
        "duplicates_dropped": log.duplicates,
        "skipped_lines": [str(p) for p in log.skipped],
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


def summary_dict(
    result: Replay, log: ParsedLog | None = None, series: str | None = None
) -> dict[str, Any]:
    out = result.summary.as_dict()
    if log is not None:
        out["log"] = log_dict(log, series)
    return out


def to_jsonl(result: Replay, log: ParsedLog | None = None, series: str | None = None) -> str:
    lines = [json.dumps(row) for row in row_dicts(result, log, series)]
    lines.append(json.dumps({"summary": summary_dict(result, log, series)}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def to_csv(result: Replay, log: ParsedLog | None = None, series: str | None = None) -> str:
    buf = io.StringIO()
    keys = list(ROW_KEYS) + (list(LOG_ROW_KEYS) if log is not None else [])
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(keys)
    for row in row_dicts(result, log, series):
        writer.writerow([_cell(row[k]) for k in keys])
    for key, value in summary_dict(result, log, series).items():
        shown = json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else value
        buf.write(f"# {key},{_cell(shown)}\n")
    return buf.getvalue()
