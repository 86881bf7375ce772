"""Copilot CLI's OpenTelemetry pass as it was before issue 40's memory round (commit
30fcd9f, ``budgetcore/replay/logs/copilot.py`` ``_otel``, copied whole): the reference
``tests/property/test_copilot_otel_properties.py`` holds the leaner pass equal to, on
generated exports. Its helpers (what a record's source, counts, trace and time are) are
the reader's own, unchanged by that round."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from budgetcore.replay.logs.copilot import (
    _MODEL_ATTRS,
    _SESSION_ATTRS,
    _SOURCE_NAMES,
    _attr,
    _NotACount,
    _number,
    _source,
    _time,
    _trace,
)
from budgetcore.replay.logs.tally import Row, Tally, registry_name

__all__ = ["otel_before"]


def otel_before(tally: Tally, rows: Iterable[tuple[int, dict[str, Any]]]) -> None:
    """One pass over the records: each trace's model and session (from any of its
    records), and each record's usage with what it says of its own model, session and
    time (no record kept); then the requests, deduplicated across sources."""
    models: dict[str, str] = {}
    sessions: dict[str, tuple[int, str]] = {}
    found: list[
        tuple[
            int,
            int,
            tuple[int, ...],
            str | None,
            str | None,
            str | None,
            tuple[int, str] | None,
            int | None,
        ]
    ] = []
    for number, obj in rows:
        attrs = obj.get("attributes")
        source = _source(obj, attrs) if isinstance(attrs, dict) else None
        # A record's model and sessions, each attribute read once (for its trace, and
        # for its own request below).
        model = ids = None
        if isinstance(attrs, dict):
            model = _attr(attrs, _MODEL_ATTRS[0]) or _attr(attrs, _MODEL_ATTRS[1])
            ids = [(rank, sid) for key, rank in _SESSION_ATTRS if (sid := _attr(attrs, key))]
            trace = _trace(obj)
            if trace is not None:
                if model is not None:
                    models.setdefault(trace, model)
                for rank, sid in ids:
                    if rank > sessions.get(trace, (0, ""))[0]:
                        sessions[trace] = (rank, sid)
        if source is None or not isinstance(attrs, dict):
            kind = obj.get("name") or obj.get("type") or "record"
            tally.entry(f"otel {kind}" if isinstance(kind, str) else "otel record")
            continue
        try:
            prompt = _number(attrs, "gen_ai.usage.input_tokens")
            output = _number(attrs, "gen_ai.usage.output_tokens")
            read = min(_number(attrs, "gen_ai.usage.cache_read.input_tokens"), prompt)
            # The cache writes are in the input count too, as the reads are: OpenTelemetry's
            # GenAI conventions (gen_ai.usage.cache_creation.input_tokens / cache_write:
            # "SHOULD be included in gen_ai.usage.input_tokens"), and a live Copilot CLI
            # 1.0.80 export's chat span, 19,335 input = 8,888 read + 10,437 written + 10
            # (RandomCodeSpace/aiusage-core's copilot adapter test, shape copied from
            # ~/.copilot/otel). ccusage 20.0.24 takes out the reads only and bills the
            # written tokens twice, as input and as cache writes.
            write = min(
                _number(
                    attrs,
                    "gen_ai.usage.cache_write.input_tokens",
                    "gen_ai.usage.cache_creation.input_tokens",
                ),
                prompt - read,
            )
            reasoning = _number(
                attrs, "gen_ai.usage.reasoning.output_tokens", "gen_ai.usage.reasoning_tokens"
            )
        except _NotACount as exc:
            tally.malformed(number, exc.problem)
            continue
        if not (prompt or output or write or reasoning):
            tally.entry(f"otel {_SOURCE_NAMES[source]} (no usage)")
            continue
        found.append(
            (
                number,
                source,
                (prompt - read - write, read, write, output, reasoning),
                trace,
                _attr(attrs, "gen_ai.response.id"),
                model,
                max(ids) if ids else None,
                _time(obj),
            )
        )
    traces: list[set[str]] = [set(), set(), set(), set()]
    responses: list[set[str]] = [set(), set(), set(), set()]
    for _line, source, _u, trace, response, _m, _o, _t in found:
        if trace:
            traces[source].add(trace)
        if response:
            responses[source].add(response)
    # The requests of the series being read, handed to the ledger at once
    # (Tally.requests_of: a keyword call of Tally.request per request cost about a
    # microsecond), before another series' and at the end: in the order read, each
    # series made known at its first request, as Tally.request and Tally.time do.
    pending: list[Row] = []
    pending_series = ""
    stamps: dict[str, list[tuple[str | None, int]]] = {}
    here = tally.file
    for number, source, usage, trace, response, named, own, time in found:
        fresh, read, write, output, reasoning = usage
        higher = range(source)
        if any((trace in traces[h]) or (response in responses[h]) for h in higher):
            tally.duplicate(f"{_SOURCE_NAMES[source]} covered by a higher source")
            continue
        model = named if named is not None or trace is None else models.get(trace)
        session = (
            own[1]
            if own is not None
            else sessions[trace][1]
            if trace in sessions
            else trace or "unknown-session"
        )
        series = f"conversation:{session}"
        if series != pending_series:
            if pending:
                tally.requests_of(pending_series, pending)
                pending = []
            pending_series = series
        times = stamps.get(series)
        if times is None:
            times = stamps[series] = tally.stamps(series)
        if time is not None:
            times.append((None, time))
        pending.append(
            (
                number,
                fresh,
                read,
                # Reasoning is part of the output (OpenAI's completion tokens; ccusage
                # 20.0.24 bills the output count alone).
                output,
                min(reasoning, output),
                None if model is None else registry_name(model),
                time,
                None,
                here,
                write,
                None,
            )
        )
    tally.requests_of(pending_series, pending)
